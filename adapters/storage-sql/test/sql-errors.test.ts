import test from 'ava';
import { createTestDatabase } from '../src/testing/create-test-database';
import { freePort } from '@payments/node-runtime';
import knexFactory from 'knex';
import { createKnex } from '../src/create-knex';
import { isDatabaseUnavailableError, isDuplicateKeyError, isRetryableTransactionError } from '../src/sql-errors';
import { mysqlError } from './test-support';

const intentsOrderUnique = {
  indexName: 'payment_intents_merchant_order_unique',
  sqliteColumns: ['payment_intents.merchant_id', 'payment_intents.mode', 'payment_intents.merchant_order_id'],
};

test('duplicate keys are recognised from both drivers, and attributed to their constraint', (t) => {
  const mariadb = mysqlError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'm-test-o' for key 'payment_intents_merchant_order_unique'");
  const mysql8 = mysqlError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'm-test-o' for key 'payment_intents.payment_intents_merchant_order_unique'");
  const onId = mysqlError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'pi_1' for key 'payment_intents_id_unique'");
  const sqlite = Object.assign(new Error('UNIQUE constraint failed: payment_intents.merchant_id, payment_intents.mode, payment_intents.merchant_order_id'), {
    code: 'SQLITE_CONSTRAINT_UNIQUE',
  });
  const sqlitePk = Object.assign(new Error('UNIQUE constraint failed: merchants.id'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  for (const error of [mariadb, mysql8, sqlite]) t.true(isDuplicateKeyError(error, intentsOrderUnique), error.message);
  for (const error of [onId, sqlitePk]) t.false(isDuplicateKeyError(error, intentsOrderUnique), error.message);
  for (const error of [mariadb, onId, sqlite, sqlitePk]) t.true(isDuplicateKeyError(error));
  t.false(isDuplicateKeyError(mysqlError(1213, 'ER_LOCK_DEADLOCK')));
  t.false(isDuplicateKeyError(Object.assign(new Error('NOT NULL constraint failed'), { code: 'SQLITE_CONSTRAINT_NOTNULL' })));
  t.false(isDuplicateKeyError('a string'));
});

test('deadlocks, lock wait timeouts and a busy SQLite file are retryable; nothing else is', (t) => {
  t.true(isRetryableTransactionError(mysqlError(1213, 'ER_LOCK_DEADLOCK')));
  t.true(isRetryableTransactionError(mysqlError(1205, 'ER_LOCK_WAIT_TIMEOUT')));
  t.true(isRetryableTransactionError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })));
  t.true(isRetryableTransactionError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' })));
  t.false(isRetryableTransactionError(mysqlError(1062, 'ER_DUP_ENTRY')));
  t.false(isRetryableTransactionError(new Error('boom')));
  t.false(isRetryableTransactionError(undefined));
});

test('a real duplicate from the test database is recognised', async (t) => {
  const database = await createTestDatabase();
  try {
    const row = {
      id: 'mch_dup',
      name: 'n',
      email: 'e@example.com',
      live_enabled: 0,
      settlement_currency: 'THB',
      settlement_schedule: 'daily',
      settlement_delay_days: 2,
      created_at: 0,
    };
    await database.knex('merchants').insert(row);
    const error = await t.throwsAsync(database.knex('merchants').insert(row), { any: true });
    t.true(isDuplicateKeyError(error));
    t.false(isRetryableTransactionError(error));
  } finally {
    await database.destroy();
  }
});

test('an unreachable database is recognised: driver, protocol and server codes, the pool timeout; a refused statement is not', (t) => {
  for (const error of [
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED', errno: -111 }),
    Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104 }),
    Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }),
    mysqlError(1053, 'ER_SERVER_SHUTDOWN', 'Server shutdown in progress'),
    mysqlError(1927, 'ER_CONNECTION_KILLED', 'Connection was killed'),
    mysqlError(1040, 'ER_CON_COUNT_ERROR', 'Too many connections'),
    Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
    new Error("Can't add new command when connection is in closed state"),
  ]) {
    t.true(isDatabaseUnavailableError(error), error.message);
  }
  for (const error of [
    mysqlError(1062, 'ER_DUP_ENTRY'),
    mysqlError(1213, 'ER_LOCK_DEADLOCK'),
    mysqlError(1146, 'ER_NO_SUCH_TABLE'),
    new Error('boom'),
    undefined,
    'ECONNREFUSED',
  ]) {
    t.false(isDatabaseUnavailableError(error), String(error));
  }
});

test('real outages are recognised: a closed port, and a pool that cannot hand out a connection in time', async (t) => {
  const closed = createKnex(`mysql://root@127.0.0.1:${await freePort()}/payments`);
  try {
    t.true(isDatabaseUnavailableError(await t.throwsAsync(closed.raw('SELECT 1'))));
  } finally {
    await closed.destroy();
  }
  // One connection, held by an open transaction: the next query waits for the pool and times out.
  const single = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: ':memory:' },
    useNullAsDefault: true,
    pool: { min: 1, max: 1 },
    acquireConnectionTimeout: 100,
  });
  const trx = await single.transaction();
  try {
    t.true(isDatabaseUnavailableError(await t.throwsAsync(single.raw('SELECT 1'))));
  } finally {
    await trx.rollback();
    await single.destroy();
  }
});

test('MariaDB killing the connection under a running statement is recognised (skipped without PAYMENTS_TEST_DATABASE_URL)', async (t) => {
  if (!process.env['PAYMENTS_TEST_DATABASE_URL']) {
    t.pass('no MariaDB to test against');
    return;
  }
  const database = await createTestDatabase();
  const admin = createKnex(database.url);
  try {
    const victim = database.knex.transaction(async (trx) => {
      const [[row]] = await trx.raw<[[{ id: number }]]>('SELECT CONNECTION_ID() AS id');
      // knex builders are lazy: `then` sends it.
      setTimeout(
        () =>
          void admin.raw(`KILL CONNECTION ${Number(row.id)}`).then(
            () => undefined,
            () => undefined,
          ),
        200,
      );
      await trx.raw('SELECT SLEEP(5)');
    });
    const error = await t.throwsAsync(victim);
    t.true(isDatabaseUnavailableError(error), `${'code' in error ? String(error.code) : ''}: ${error.message}`);
    t.false(isRetryableTransactionError(error));
  } finally {
    await admin.destroy();
    await database.destroy();
  }
});
