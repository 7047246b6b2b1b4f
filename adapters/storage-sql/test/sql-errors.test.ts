import test from 'ava';
import { createTestDatabase } from '../src/testing/create-test-database';
import { isDuplicateKeyError, isRetryableTransactionError } from '../src/sql-errors';
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
    const row = { id: 'mch_dup', name: 'n', email: 'e@example.com', live_enabled: 0, settlement_currency: 'THB', settlement_schedule: 'daily', settlement_delay_days: 2, created_at: 0 };
    await database.knex('merchants').insert(row);
    const error = await t.throwsAsync(database.knex('merchants').insert(row), { any: true });
    t.true(isDuplicateKeyError(error));
    t.false(isRetryableTransactionError(error));
  } finally {
    await database.destroy();
  }
});
