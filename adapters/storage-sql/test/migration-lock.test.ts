import test from 'ava';
import { acquireMigrationLock, MigrationLockLostError, type MigrationLockTiming } from '../src/migrations/migration-lock';
import { createTestDatabase, type TestDatabase } from '../src/testing/create-test-database';
import { onMysql } from './test-support';

// Short times, so a lease runs out within a test; the ratios are the service's.
const FAST: MigrationLockTiming = { leaseMs: 1_000, renewEveryMs: 100, waitMs: 10_000, pollMs: 30 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a second process waits while the first holds the lock, and gets it once released', async (t) => {
  const database = await createTestDatabase();
  try {
    // A longer lease than FAST's: on a loaded machine a renewal can be late by most of a second.
    const timing = { ...FAST, leaseMs: 2_500 };
    const first = await acquireMigrationLock(database.knex, timing);
    const order: string[] = [];
    const second = acquireMigrationLock(database.knex, timing).then((lock) => {
      order.push('second acquired');
      return lock;
    });
    // Past several leases: the holder renews, so nobody takes its lock over.
    await sleep(timing.leaseMs * 2.5);
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

const TEN_MINUTES = 10 * 60_000;
const holders = (database: TestDatabase) => database.knex('payments_migration_lock').select('holder');

/** Runs `work` with this process's clock (Date.now) off by `skewMs`. Serial tests only: the clock is the whole process's. */
async function withClockSkew<T>(skewMs: number, work: () => Promise<T>): Promise<T> {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + skewMs;
  try {
    return await work();
  } finally {
    Date.now = realNow;
  }
}

test.serial('a waiter whose clock runs far ahead does not take a live lease over (leases go by the database clock)', async (t) => {
  const database = await createTestDatabase();
  try {
    const held = await acquireMigrationLock(database.knex, FAST);
    // By the waiter's clock the lease ran out ten minutes ago; it must wait, and here give up.
    const error = await withClockSkew(TEN_MINUTES, () => t.throwsAsync(acquireMigrationLock(database.knex, { ...FAST, waitMs: FAST.leaseMs / 2 })));
    t.true(error?.message.includes(held.holder), error?.message);
    t.deepEqual(await holders(database), [{ holder: held.holder }]);
    await held.release();
  } finally {
    await database.destroy();
  }
});

test.serial('a holder whose clock runs far behind keeps its lease from a waiter with the right time', async (t) => {
  const database = await createTestDatabase();
  try {
    const held = await withClockSkew(-TEN_MINUTES, () => acquireMigrationLock(database.knex, FAST));
    const error = await t.throwsAsync(acquireMigrationLock(database.knex, { ...FAST, waitMs: FAST.leaseMs / 2 }));
    t.true(error?.message.includes(held.holder), error?.message);
    t.deepEqual(await holders(database), [{ holder: held.holder }]);
    await held.release();
  } finally {
    await database.destroy();
  }
});

test('a holder whose lock was taken over stops: its renewal finds the row lost and the next statement is not run', async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    const lock = await acquireMigrationLock(knex, FAST);
    let thief: Awaited<ReturnType<typeof acquireMigrationLock>> | undefined;
    const ran: string[] = [];
    const error = await t.throwsAsync(
      lock.guard(async () => {
        await knex.schema.createTable('lock_probe_before', (table) => void table.integer('n'));
        ran.push('before');
        // Meanwhile its lease ran out (a long pause) and a waiting process took the lock over.
        await knex('payments_migration_lock').delete();
        thief = await acquireMigrationLock(knex, FAST);
        await sleep(FAST.renewEveryMs * 3);
        await knex.schema.createTable('lock_probe_after', (table) => void table.integer('n'));
        ran.push('after');
      }),
      { instanceOf: MigrationLockLostError },
    );
    t.true(error?.message.includes(`taken over by ${thief?.holder}`), error?.message);
    t.deepEqual(ran, ['before']);
    t.true(await knex.schema.hasTable('lock_probe_before'));
    t.false(await knex.schema.hasTable('lock_probe_after'), 'the statement after the loss never ran');
    // Its release leaves the new holder's lock alone.
    await lock.release();
    t.deepEqual(await holders(database), [{ holder: thief?.holder }]);
    await thief?.release();
  } finally {
    await database.destroy();
  }
});

test('a guarded transaction of a holder that lost the lock is rolled back, not left open (MySQL; skipped without PAYMENTS_TEST_DATABASE_URL)', async (t) => {
  // On SQLite the one pooled connection is the transaction's, so no renewal runs meanwhile.
  if (!onMysql) {
    t.pass('no MySQL to test against');
    return;
  }
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    await knex.schema.createTable('lock_probe_rows', (table) => void table.integer('n'));
    const lock = await acquireMigrationLock(knex, FAST);
    let connection: number | undefined;
    await t.throwsAsync(
      lock.guard(() =>
        knex.transaction(async (trx) => {
          const [[row]] = await trx.raw<[[{ id: number }]]>('SELECT CONNECTION_ID() AS id');
          connection = row?.id;
          await trx('lock_probe_rows').insert({ n: 1 });
          await knex('payments_migration_lock').delete();
          await sleep(FAST.renewEveryMs * 3);
          await trx('lock_probe_rows').insert({ n: 2 });
        }),
      ),
      { instanceOf: MigrationLockLostError },
    );
    await lock.release();
    t.deepEqual(await knex('lock_probe_rows').select('n'), []);
    const [open] = await knex.raw<[unknown[]]>('SELECT trx_id FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ?', [connection ?? -1]);
    t.deepEqual(open, [], 'its connection went back to the pool with no transaction open');
  } finally {
    await database.destroy();
  }
});
