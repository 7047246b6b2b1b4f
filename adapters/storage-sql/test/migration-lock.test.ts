import test from 'ava';
import { acquireMigrationLock, type MigrationLockTiming } from '../src/migrations/migration-lock';
import { createTestDatabase } from '../src/testing/create-test-database';

// Short times, so a lease runs out within a test; the ratios are the service's.
const FAST: MigrationLockTiming = { leaseMs: 1_000, renewEveryMs: 100, waitMs: 10_000, pollMs: 30 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a second process waits while the first holds the lock, and gets it once released', async (t) => {
  const database = await createTestDatabase();
  try {
    const first = await acquireMigrationLock(database.knex, FAST);
    const order: string[] = [];
    const second = acquireMigrationLock(database.knex, FAST).then((lock) => {
      order.push('second acquired');
      return lock;
    });
    // Past several leases: the holder renews, so nobody takes its lock over.
    await sleep(FAST.leaseMs * 2.5);
    order.push('first released');
    await first.release();
    await (await second).release();
    t.deepEqual(order, ['first released', 'second acquired']);
    t.deepEqual(await database.knex('payments_migration_lock').select('name'), []);
  } finally {
    await database.destroy();
  }
});

test('the lock of a migrator that died (its lease ran out) is taken over', async (t) => {
  const database = await createTestDatabase();
  try {
    const dead = await acquireMigrationLock(database.knex, { ...FAST, renewEveryMs: 60_000 });
    const lock = await acquireMigrationLock(database.knex, FAST);
    t.not(lock.holder, dead.holder);
    t.deepEqual(await database.knex('payments_migration_lock').select('holder'), [{ holder: lock.holder }]);
    // The dead holder's late release does not free the new holder's lock.
    await dead.release();
    t.deepEqual(await database.knex('payments_migration_lock').select('holder'), [{ holder: lock.holder }]);
    await lock.release();
  } finally {
    await database.destroy();
  }
});

test('of many processes racing for the lock, one holds it at a time', async (t) => {
  const database = await createTestDatabase();
  try {
    let holding = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const lock = await acquireMigrationLock(database.knex, FAST);
        holding += 1;
        most = Math.max(most, holding);
        await sleep(20);
        holding -= 1;
        await lock.release();
      }),
    );
    t.is(most, 1);
  } finally {
    await database.destroy();
  }
});

test('a process gives up after its wait, naming the holder', async (t) => {
  const database = await createTestDatabase();
  try {
    const held = await acquireMigrationLock(database.knex, FAST);
    const error = await t.throwsAsync(acquireMigrationLock(database.knex, { ...FAST, waitMs: 300 }));
    t.true(error?.message.includes(held.holder), error?.message);
    await held.release();
  } finally {
    await database.destroy();
  }
});
