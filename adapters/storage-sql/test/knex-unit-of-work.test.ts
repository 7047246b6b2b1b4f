import test from 'ava';
import { ConcurrentUpdateError, type Merchant } from '@payments/core';
import { createSqlStorage, type SqlStorage } from '../src/create-sql-storage';
import { ContendedTransactionError } from '../src/transaction-retry';
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
  const result = await uow.run(async (transaction) => {
    attempts += 1;
    // The same id every attempt: a leftover from a failed attempt would be a duplicate key.
    await transaction.bind(merchants).insert(merchant);
    if (attempts < 3) throw mysqlError(1213, 'ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock');
    return 'committed';
  });
  t.is(result, 'committed');
  t.is(attempts, 3);
  t.deepEqual(await merchants.findById(merchant.id), merchant);
});

test('retries stop after maxRetries: the caller gets 503 api_error with Retry-After, caused by the last error', async (t) => {
  const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 1, maxRetries: 3 });
  const merchant = aMerchant();
  let attempts = 0;
  const error = await t.throwsAsync(
    uow.run(async (transaction) => {
      attempts += 1;
      await transaction.bind(merchants).insert(merchant);
      throw mysqlError(1205, 'ER_LOCK_WAIT_TIMEOUT', `attempt ${attempts}`);
    }),
    { instanceOf: ContendedTransactionError },
  );
  t.is(attempts, 4, 'the first run and three retries');
  t.like(error, { code: 'api_error', category: 'unavailable', retryAfterSeconds: 1 });
  t.like(error?.cause, { message: 'attempt 4' });
  t.is(await merchants.findById(merchant.id), undefined);
});

test('a ConcurrentUpdateError (a version check or a guard key) is retried like a deadlock', async (t) => {
  const { uow, merchants } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  const merchant = aMerchant();
  let attempts = 0;
  await uow.run(async (transaction) => {
    attempts += 1;
    await transaction.bind(merchants).insert(merchant);
    if (attempts === 1) throw new ConcurrentUpdateError('changed meanwhile');
  });
  t.is(attempts, 2);
  t.truthy(await merchants.findById(merchant.id));
});

test('only the committed run calls back after commit: what a rolled-back run queued is dropped', async (t) => {
  const { uow } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  const called: number[] = [];
  let attempts = 0;
  await uow.run(async (transaction) => {
    attempts += 1;
    const run = attempts;
    transaction.bind(uow).afterCommit(async () => {
      called.push(run);
    });
    if (run < 3) throw mysqlError(1213, 'ER_LOCK_DEADLOCK');
  });
  t.deepEqual(called, [3]);
});

test('a commit the engine fails with its deadlock (1180, error 149) is retried; other commit errors are not', async (t) => {
  const { uow } = createSqlStorage(db().knex, { baseDelayMs: 1 });
  let attempts = 0;
  await uow.run(async () => {
    attempts += 1;
    if (attempts === 1) throw mysqlError(1180, 'ER_ERROR_DURING_COMMIT', 'Got error 149 "Lock deadlock; Retry transaction" during COMMIT');
  });
  t.is(attempts, 2);
  attempts = 0;
  await t.throwsAsync(
    uow.run(async () => {
      attempts += 1;
      throw mysqlError(1180, 'ER_ERROR_DURING_COMMIT', 'Got error 28 "No space left on device" during COMMIT');
    }),
  );
  t.is(attempts, 1);
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
  await uow.run(async (transaction) => {
    outerRuns += 1;
    await transaction.bind(merchants).insert(outer);
    await transaction.bind(uow).run(async () => {
      innerRuns += 1;
      if (innerRuns === 1) throw mysqlError(1213, 'ER_LOCK_DEADLOCK');
    });
  });
  t.deepEqual([outerRuns, innerRuns], [2, 2]);
  t.truthy(await merchants.findById(outer.id));
});

/**
 * Two units of work that each change one merchant's row and then, once both hold their first, the
 * other's: a lock cycle InnoDB breaks by failing one of them with 1213.
 */
async function crossingUnitsOfWork(
  storage: SqlStorage,
): Promise<{ a: Merchant; b: Merchant; runs: () => number; race: () => Promise<PromiseSettledResult<void>[]> }> {
  const { uow, merchants } = storage;
  const a = aMerchant();
  const b = aMerchant();
  await merchants.insert(a);
  await merchants.insert(b);
  let runs = 0;
  let arrived = 0;
  let release!: () => void;
  const bothHoldFirstRow = new Promise<void>((resolve) => (release = resolve));
  const crossing = (first: string, second: string, enabled: boolean): Promise<void> =>
    uow.run(async (transaction) => {
      runs += 1;
      await transaction.bind(merchants).setLiveEnabled(first, enabled);
      arrived += 1;
      if (arrived === 2) release();
      await bothHoldFirstRow;
      await transaction.bind(merchants).setLiveEnabled(second, enabled);
    });
  return { a, b, runs: () => runs, race: () => Promise.allSettled([crossing(a.id, b.id, true), crossing(b.id, a.id, false)]) };
}

if (onMysql) {
  test('a real InnoDB deadlock between two units of work is resolved by retrying the victim', async (t) => {
    const storage = createSqlStorage(db().knex, { baseDelayMs: 5 });
    const { a, b, runs, race } = await crossingUnitsOfWork(storage);
    t.true((await race()).every((outcome) => outcome.status === 'fulfilled'));
    t.is(runs(), 3, 'one of the two was chosen as the deadlock victim and ran again');
    const [readA, readB] = await Promise.all([storage.merchants.findById(a.id), storage.merchants.findById(b.id)]);
    t.is(readA?.liveEnabled, readB?.liveEnabled, 'the retried unit of work ran whole, after the other');
  });

  test('a real InnoDB deadlock past the retry bound is 503 api_error for its victim; the other commits', async (t) => {
    const { race } = await crossingUnitsOfWork(createSqlStorage(db().knex, { baseDelayMs: 1, maxRetries: 0 }));
    const outcomes = await race();
    const failed = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' && outcome.reason instanceof ContendedTransactionError ? [outcome.reason] : [],
    );
    t.is(failed.length, 1);
    t.is(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    t.like(failed[0], { code: 'api_error', category: 'unavailable', retryAfterSeconds: 1 });
    t.like(failed[0]?.cause, { errno: 1213 });
  });

  test('a write refused as a cluster would (first committer wins, 1020) runs again on the committed row', async (t) => {
    const certifying = await createTestDatabase({ firstCommitterWins: true });
    try {
      const { uow, merchants } = createSqlStorage(certifying.knex, { baseDelayMs: 1 });
      const merchant = aMerchant();
      await merchants.insert(merchant);
      let release!: () => void;
      const bothRead = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      let attempts = 0;
      // Both read (their snapshots) before either writes; the second writer must not overwrite the first.
      const rename = (name: string): Promise<string | undefined> =>
        uow.run(async (transaction) => {
          attempts += 1;
          const read = await transaction.bind(merchants).findById(merchant.id);
          reads += 1;
          if (reads === 2) release();
          await bothRead;
          await transaction.bind(merchants).updateSettings(merchant.id, { name: `${read?.name ?? ''}+${name}` });
          return read?.name;
        });
      await Promise.all([rename('a'), rename('b')]);
      t.is(attempts, 3, 'one of the two was refused and ran again');
      const final = (await merchants.findById(merchant.id))?.name ?? '';
      t.true(final === `${merchant.name}+a+b` || final === `${merchant.name}+b+a`, final);
    } finally {
      await certifying.destroy();
    }
  });
}
