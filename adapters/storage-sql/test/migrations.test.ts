import test from 'ava';
import { createKnex } from '../src/create-knex';
import { migrateLatest } from '../src/migrations/migrate';
import { createTestDatabase } from '../src/testing/create-test-database';
import { onMysql } from './test-support';

const TABLES = ['merchants', 'users', 'api_keys', 'payment_intents', 'checkout_sessions', 'events', 'idempotency_keys'];

test('migrating again is a no-op, also from several processes at once', async (t) => {
  const database = await createTestDatabase();
  const others = [createKnex(database.url), createKnex(database.url)];
  try {
    await t.notThrowsAsync(Promise.all([migrateLatest(database.knex), ...others.map((knex) => migrateLatest(knex))]));
    for (const table of TABLES) t.true(await database.knex.schema.hasTable(table), table);
    const applied = await database.knex('knex_migrations').select('name');
    t.deepEqual(applied.map((row: { name: string }) => row.name), ['001-initial-schema']);
  } finally {
    await Promise.all(others.map((knex) => knex.destroy()));
    await database.destroy();
  }
});

if (onMysql) {
  test('on MySQL every table compares byte for byte (utf8mb4_bin)', async (t) => {
    const database = await createTestDatabase();
    try {
      const [rows] = (await database.knex.raw('SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()')) as [
        { name: string; collation: string }[],
      ];
      for (const table of TABLES) t.is(rows.find((row) => row.name === table)?.collation, 'utf8mb4_bin', table);
    } finally {
      await database.destroy();
    }
  });
}
