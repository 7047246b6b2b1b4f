import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { migrateLatest } from '../src/migrations/migrate';
import { MIGRATION_NAMES } from '../src/migrations/migration-source';
import { createTestDatabase } from '../src/testing/create-test-database';
import { onMysql } from './test-support';

const run = promisify(execFile);
const TABLES = [
  'merchants',
  'users',
  'api_keys',
  'payment_intents',
  'checkout_sessions',
  'events',
  'idempotency_keys',
  'payment_attempts',
  'simulator_orders',
  'audit_log',
  'dashboard_sessions',
  'signing_keys',
  'payout_destinations',
  'webhook_endpoints',
  'notices',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'platform_keys',
  'ledger_transactions',
  'ledger_entries',
  'ledger_balances',
  'disputes',
  'simulator_disputes',
  'settlements',
  'simulator_callbacks',
  'job_item_failures',
  'refunds',
  'simulator_refunds',
];

/** Migrates `url` in a process of its own, as the API and a worker do when they start. */
function migrateInChildProcess(url: string): Promise<unknown> {
  const entry = join(__dirname, '..', 'src', 'index.js');
  const script = `
    const { createKnex, migrateLatest } = require(${JSON.stringify(entry)});
    const knex = createKnex(process.env.DATABASE_URL);
    migrateLatest(knex).then(() => knex.destroy()).catch((error) => { console.error(error); process.exit(1); });`;
  return run(process.execPath, ['-e', script], { env: { ...process.env, DATABASE_URL: url }, timeout: 60_000 });
}

test('migrating again is a no-op', async (t) => {
  const database = await createTestDatabase();
  try {
    await t.notThrowsAsync(migrateLatest(database.knex));
    for (const table of TABLES) t.true(await database.knex.schema.hasTable(table), table);
    const applied = await database.knex('knex_migrations').select('name');
    t.deepEqual(
      applied.map((row: { name: string }) => row.name),
      [...MIGRATION_NAMES],
    );
  } finally {
    await database.destroy();
  }
});

test('processes starting together on an empty database migrate it once, and none fails', async (t) => {
  const database = await createTestDatabase();
  try {
    // Back to an empty database, knex's bookkeeping included, so the children race from scratch.
    for (const table of [...TABLES, 'knex_migrations', 'knex_migrations_lock']) await database.knex.schema.dropTable(table);
    await t.notThrowsAsync(Promise.all(Array.from({ length: 4 }, () => migrateInChildProcess(database.url))));
    for (const table of TABLES) t.true(await database.knex.schema.hasTable(table), table);
    t.is((await database.knex('knex_migrations').select('name')).length, MIGRATION_NAMES.length);
    t.deepEqual(await database.knex('knex_migrations_lock').select('index', 'is_locked'), [{ index: 1, is_locked: 0 }]);
  } finally {
    await database.destroy();
  }
});

if (onMysql) {
  test('on MySQL a knex lock left by a killed migrator does not block the next start', async (t) => {
    const database = await createTestDatabase();
    try {
      await database.knex('knex_migrations_lock').update({ is_locked: 1 });
      await t.notThrowsAsync(migrateLatest(database.knex));
      t.deepEqual(await database.knex('knex_migrations_lock').select('is_locked'), [{ is_locked: 0 }]);
    } finally {
      await database.destroy();
    }
  });

  test('on MySQL every table compares byte for byte (utf8mb4_bin)', async (t) => {
    const database = await createTestDatabase();
    try {
      const [rows] = await database.knex.raw<[{ name: string; collation: string }[]]>(
        'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
      );
      for (const table of TABLES) t.is(rows.find((row) => row.name === table)?.collation, 'utf8mb4_bin', table);
    } finally {
      await database.destroy();
    }
  });
}
