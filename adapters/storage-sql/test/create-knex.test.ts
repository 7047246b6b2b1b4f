import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createKnex } from '../src/create-knex';
import { clientOf } from '../src/dialect';
import { isDuplicateKeyError } from '../src/sql-errors';
import { createTestDatabase } from '../src/testing/create-test-database';
import { onMysql } from './test-support';

// better-sqlite3's errors are not Error instances to ava, so they are read by their fields.
const fieldsOf = (error: unknown): object => (typeof error === 'object' && error !== null ? error : {});
const messageOf = (error: unknown): string => {
  const fields = fieldsOf(error);
  return 'message' in fields ? String(fields.message) : '';
};

/** What a log line can show of an error: its message and every enumerable field (pino's err serializer). */
function everythingLoggedOf(error: unknown): string {
  return JSON.stringify({ message: messageOf(error), ...fieldsOf(error) });
}

const isSqliteConnection = (value: unknown): value is { prepare(sql: string): unknown } =>
  typeof value === 'object' && value !== null && 'prepare' in value && typeof value.prepare === 'function';

test('a failed query names its statement with placeholders: no bound value in the error, in or out of a transaction', async (t) => {
  const database = await createTestDatabase();
  try {
    const secret = 'sk_live_4f7QbindingSecret0123456789';
    // better-sqlite3's errors are not Error instances to ava, hence `any`.
    const outside = await t.throwsAsync(database.knex('merchants').insert({ id: 'mch_x', no_such_column: secret }), { any: true });
    const inside = await t.throwsAsync(
      database.knex.transaction((trx) => trx('merchants').where({ no_such_column: secret }).update({ name: secret })),
      { any: true },
    );
    const raw = await t.throwsAsync(database.knex.raw('select ? + no_such_column from merchants', [secret]), { any: true });
    for (const error of [outside, inside, raw]) {
      t.false(everythingLoggedOf(error).includes(secret), everythingLoggedOf(error));
      t.regex(messageOf(error), /\?/, 'the statement is still named, with its placeholders');
    }
  } finally {
    await database.destroy();
  }
});

test('a sqlite URL creates the file’s directory and sets WAL, busy_timeout and foreign keys', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'payments-knex-'));
  const file = join(directory, 'nested', 'deeper', 'payments.sqlite');
  const knex = createKnex(`sqlite:${file}`);
  try {
    const pragma = async (name: string): Promise<unknown> => {
      const rows = await knex.raw<Record<string, unknown>[]>(`PRAGMA ${name}`);
      return Object.values(rows[0] ?? {})[0];
    };
    t.is(await pragma('journal_mode'), 'wal');
    t.is(await pragma('busy_timeout'), 5000);
    t.is(await pragma('foreign_keys'), 1);
    t.true(existsSync(file));
  } finally {
    await knex.destroy();
    await rm(directory, { recursive: true, force: true });
  }
});

test('createTestDatabase cleans up after itself', async (t) => {
  const database = await createTestDatabase();
  await database.destroy();
  if (database.url.startsWith('sqlite:')) {
    t.false(existsSync(database.url.slice('sqlite:'.length)));
  } else {
    const serverUrl = process.env['PAYMENTS_TEST_DATABASE_URL'];
    if (serverUrl === undefined) throw new Error('A MySQL test database is made on PAYMENTS_TEST_DATABASE_URL.');
    const admin = createKnex(serverUrl);
    try {
      const name = new URL(database.url).pathname.slice(1);
      const [rows] = await admin.raw<[unknown[]]>('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [name]);
      t.is(rows.length, 0);
    } finally {
      await admin.destroy();
    }
  }
});

if (onMysql) {
  test('MySQL: a duplicate key error does not quote the refused value, and is still recognised by its index', async (t) => {
    const database = await createTestDatabase();
    try {
      await database.knex.schema.createTable('secret_values', (table) => {
        table.string('value', 64).notNullable().unique({ indexName: 'secret_values_unique' });
      });
      const secret = 'payer-secret-0123456789';
      await database.knex('secret_values').insert({ value: secret });
      const error = await t.throwsAsync(database.knex('secret_values').insert({ value: secret }), { any: true });
      t.false(everythingLoggedOf(error).includes(secret), everythingLoggedOf(error));
      t.true(isDuplicateKeyError(error, { indexName: 'secret_values_unique', sqliteColumns: ['secret_values.value'] }));
    } finally {
      await database.destroy();
    }
  });

  test('MySQL sessions run READ COMMITTED in UTC with utf8mb4', async (t) => {
    const database = await createTestDatabase();
    try {
      const [rows] = await database.knex.raw<[{ isolation: string; zone: string; charset: string }[]]>(
        'SELECT @@SESSION.tx_isolation AS isolation, @@SESSION.time_zone AS zone, @@SESSION.character_set_client AS charset',
      );
      t.deepEqual(rows[0], { isolation: 'READ-COMMITTED', zone: '+00:00', charset: 'utf8mb4' });
    } finally {
      await database.destroy();
    }
  });
}

test('SQLite statements are prepared once per SQL text and stay right after a schema change', async (t) => {
  const directory = await mkdtemp(join(tmpdir(), 'payments-knex-'));
  const knex = createKnex(`sqlite:${join(directory, 'prepared.sqlite')}`);
  try {
    const client = clientOf(knex);
    const connection: unknown = await client.acquireConnection();
    if (!isSqliteConnection(connection)) throw new Error('The pool handed out no SQLite connection.');
    try {
      t.is(connection.prepare('select 1 as one'), connection.prepare('select 1 as one'), 'one statement for one SQL text');
      t.not(connection.prepare('select 2 as two'), connection.prepare('select 1 as one'));
    } finally {
      client.releaseConnection(connection);
    }
    await knex.schema.createTable('things', (table) => table.string('id').primary());
    await knex('things').insert({ id: 'a' });
    t.deepEqual(await knex('things').select('*'), [{ id: 'a' }]);
    await knex.schema.alterTable('things', (table) => table.string('colour').nullable());
    // The same SQL text again: the kept statement must see the new column, not the old plan.
    t.deepEqual(await knex('things').select('*'), [{ id: 'a', colour: null }]);
  } finally {
    await knex.destroy();
    await rm(directory, { recursive: true, force: true });
  }
});
