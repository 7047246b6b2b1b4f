import test from 'ava';
import { createSqlStorage } from '../src/create-sql-storage';
import { createTestDatabase, type TestDatabase } from '../src/testing/create-test-database';
import { aMerchant, mysqlError, onMysql } from './test-support';

let database: TestDatabase | undefined;
const db = (): TestDatabase => {
  if (!database) throw new Error('no test database');
  return database;
};

test.before(async () => {
  database = await createTestDatabase();
});
test.after.always(async () => {
  await database?.destroy();
});

test('a deadlock is retried: the failed attempt is rolled back and the work runs again', async (t) => {
  const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  const merchant = aMerchant();
  let attempts = 0;
  const result = await uow.run(async () => {
    attempts += 1;
    // The same id every attempt: a leftover from a failed attempt would be a duplicate key.
    await merchants.insert(merchant);
    if (attempts < 3) throw mysqlError(1213, 'ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock');
    return 'committed';
  });
  t.is(result, 'committed');
  t.is(attempts, 3);
  t.deepEqual(await merchants.findById(merchant.id), merchant);
});

test('retries stop after maxRetries and the last error reaches the caller', async (t) => {
  const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 1, maxRetries: 3 });
  const merchant = aMerchant();
  let attempts = 0;
  const error = await t.throwsAsync(
    uow.run(async () => {
      attempts += 1;
      await merchants.insert(merchant);
      throw mysqlError(1205, 'ER_LOCK_WAIT_TIMEOUT', `attempt ${attempts}`);
    }),
  );
  t.is(attempts, 4, 'the first run and three retries');
  t.is(error?.message, 'attempt 4');
  t.is(await merchants.findById(merchant.id), undefined);
});

test('other errors are not retried', async (t) => {
  const { uow } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  let attempts = 0;
  await t.throwsAsync(
    uow.run(async () => {
      attempts += 1;
      throw new Error('a bug');
    }),
    { message: 'a bug' },
  );
  t.is(attempts, 1);
});

test('a nested run does not retry on its own: the outermost run retries the whole work', async (t) => {
  const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  const outer = aMerchant();
  let outerRuns = 0;
  let innerRuns = 0;
  await uow.run(async () => {
    outerRuns += 1;
    await merchants.insert(outer);
    await uow.run(async () => {
      innerRuns += 1;
      if (innerRuns === 1) throw mysqlError(1213, 'ER_LOCK_DEADLOCK');
    });
  });
  t.deepEqual([outerRuns, innerRuns], [2, 2]);
  t.truthy(await merchants.findById(outer.id));
});

if (onMysql) {
  test('a real InnoDB deadlock between two units of work is resolved by retrying the victim', async (t) => {
    const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 5 });
    const a = aMerchant();
    const b = aMerchant();
    await merchants.insert(a);
    await merchants.insert(b);
    // Both transactions hold their first row before either asks for its second: a lock cycle.
    let arrived = 0;
    let release!: () => void;
    const bothHoldFirstRow = new Promise<void>((resolve) => (release = resolve));
    const meet = async (): Promise<void> => {
      arrived += 1;
      if (arrived === 2) release();
      await bothHoldFirstRow;
    };
    let attempts = 0;
    const crossing = (first: string, second: string, enabled: boolean): Promise<void> =>
      uow.run(async () => {
        attempts += 1;
        await merchants.setLiveEnabled(first, enabled);
        await meet();
        await merchants.setLiveEnabled(second, enabled);
      });
    await t.notThrowsAsync(Promise.all([crossing(a.id, b.id, true), crossing(b.id, a.id, false)]));
    t.is(attempts, 3, 'one of the two was chosen as the deadlock victim and ran again');
    const [readA, readB] = await Promise.all([merchants.findById(a.id), merchants.findById(b.id)]);
    t.is(readA?.liveEnabled, readB?.liveEnabled, 'the retried unit of work ran whole, after the other');
  });
}
