import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { Knex } from 'knex';
import { migrateLatest } from '../src/migrations/migrate';
import { InCodeMigrationSource, MIGRATION_NAMES } from '../src/migrations/migration-source';
import { KnexEventOutbox } from '../src/repositories/knex-event-outbox.repository';
import { KnexContext } from '../src/knex-context';
import { createTestDatabase } from '../src/testing/create-test-database';
import { createSqlStorage } from '../src/create-sql-storage';
import { traceContexts } from '../src/migrations/027-trace-contexts.migration';
import { onMysql } from './test-support';

const run = promisify(execFile);
const source = { migrationSource: new InCodeMigrationSource() };

/** Rolls migrations back, the last first, until `name` is undone too. */
async function rollBackThrough(knex: Knex, name: string): Promise<void> {
  while ((await knex('knex_migrations').where({ name }).first()) !== undefined) await knex.migrate.down(source);
}
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
  'ledger_channel_movements',
  'reconciliation_statement_lines',
  'reconciliation_progress',
  'reconciliation_breaks',
  'trace_contexts',
  'channel_credentials',
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

test("019 files the events written before it under their intent, and keeps every idempotency key as an API caller's; down undoes it", async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    await rollBackThrough(knex, '019-dashboard-console');
    const scope = { merchant_id: 'mch_before', mode: 'test' };
    const event = (id: string, type: string, data: object) => ({ id, ...scope, type, created_at: 0, data: JSON.stringify(data) });
    await knex('disputes').insert({
      id: 'dp_before',
      ...scope,
      payment_intent_id: 'pi_disputed',
      status: 'opened',
      amount: 100,
      currency: 'THB',
      evidence: '{}',
      channel: 'simulator',
      channel_dispute_id: 'chd_before',
      due_by: 0,
      opened_at: 0,
      created_at: 0,
      updated_at: 0,
    });
    await knex('events').insert([
      event('evt_A', 'payment_intent.succeeded', { id: 'pi_paid', object: 'payment_intent' }),
      event('evt_B', 'refund.created', { id: 're_A', object: 'refund', payment_intent: 'pi_paid' }),
      event('evt_C', 'dispute.opened', { id: 'dp_before', object: 'dispute' }),
      event('evt_D', 'settlement.paid', { id: 'st_A', object: 'settlement' }),
    ]);
    await knex('idempotency_keys').insert({ ...scope, idem_key: 'k1', fingerprint: 'f', token: 't', state: 'completed', created_at: 0, expires_at: 1 });

    await migrateLatest(knex);
    const rows = await knex('events').select('id', 'payment_intent_id').orderBy('id');
    t.deepEqual(
      rows.map((row: { id: string; payment_intent_id: string | null }) => [row.id, row.payment_intent_id]),
      [
        ['evt_A', 'pi_paid'],
        ['evt_B', 'pi_paid'],
        ['evt_C', 'pi_disputed'],
        ['evt_D', null],
      ],
    );
    const events = new KnexEventOutbox(new KnexContext(knex));
    const about = await events.listForPaymentIntent({ merchantId: 'mch_before', mode: 'test' }, 'pi_paid');
    t.deepEqual(
      about.map((found) => found.id),
      ['evt_A', 'evt_B'],
    );
    t.deepEqual(await knex('idempotency_keys').select('caller', 'idem_key'), [{ caller: 'api', idem_key: 'k1' }]);

    await knex('idempotency_keys').insert({
      ...scope,
      caller: 'dashboard:usr_A',
      idem_key: 'k1',
      fingerprint: 'f',
      token: 't',
      state: 'completed',
      created_at: 0,
      expires_at: 1,
    });
    await rollBackThrough(knex, '019-dashboard-console');
    t.deepEqual(await knex('idempotency_keys').select('idem_key'), [{ idem_key: 'k1' }], "a dashboard user's key is forgotten");
    t.false(await knex.schema.hasColumn('events', 'payment_intent_id'));
    await migrateLatest(knex);
  } finally {
    await database.destroy();
  }
});

test('020 gives each intent one pending slot, on its oldest pending attempt, and the index refuses a second; down undoes it', async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    await rollBackThrough(knex, '020-multi-writer-guards');
    const attempt = (id: string, intent: string, status: string) => ({
      id,
      payment_intent_id: intent,
      merchant_id: 'mch_before',
      mode: 'test',
      status,
      amount: 100,
      currency: 'THB',
      payment_method: 'promptpay',
      channel: 'simulator',
      created_at: 0,
      updated_at: 0,
      version: 0,
    });
    // Two pending attempts of one intent: what a multi-writer cluster could leave before this rule.
    for (const row of [
      attempt('pa_1', 'pi_A', 'failed'),
      attempt('pa_2', 'pi_A', 'pending'),
      attempt('pa_3', 'pi_A', 'pending'),
      attempt('pa_4', 'pi_B', 'pending'),
    ]) {
      await knex('payment_attempts').insert(row);
    }

    await migrateLatest(knex);
    t.deepEqual(await knex('payment_attempts').select('id', 'pending_slot').orderBy('id'), [
      { id: 'pa_1', pending_slot: null },
      { id: 'pa_2', pending_slot: 1 },
      { id: 'pa_3', pending_slot: null },
      { id: 'pa_4', pending_slot: 1 },
    ]);
    await t.throwsAsync(knex('payment_attempts').insert({ ...attempt('pa_5', 'pi_B', 'pending'), pending_slot: 1 }), { any: true });
    t.true(await knex.schema.hasColumn('notices', 'locked_until'));

    await rollBackThrough(knex, '020-multi-writer-guards');
    t.false(await knex.schema.hasColumn('payment_attempts', 'pending_slot'));
    t.false(await knex.schema.hasColumn('notices', 'locked_until'));
    await migrateLatest(knex);
  } finally {
    await database.destroy();
  }
});

if (onMysql) {
  test('on MySQL a knex lock left by a killed migrator does not block the next start', async (t) => {
    const database = await createTestDatabase();
    try {
      // Killed mid-batch: the last migration not applied yet, knex's lock row still set.
      await database.knex.migrate.down(source);
      await database.knex('knex_migrations_lock').update({ is_locked: 1 });
      await t.notThrowsAsync(migrateLatest(database.knex));
      t.is((await database.knex('knex_migrations').select('name')).length, MIGRATION_NAMES.length);
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

test('022 adds the channel movements and the reconciliation tables; down removes them and up brings them back', async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  const added = ['ledger_channel_movements', 'reconciliation_statement_lines', 'reconciliation_progress', 'reconciliation_breaks'];
  try {
    for (const table of added) t.true(await knex.schema.hasTable(table), table);
    await rollBackThrough(knex, '022-channel-reconciliation');
    for (const table of added) t.false(await knex.schema.hasTable(table), table);
    await migrateLatest(knex);
    for (const table of added) t.true(await knex.schema.hasTable(table), table);
    t.is((await knex('knex_migrations').select('name')).length, MIGRATION_NAMES.length);
  } finally {
    await database.destroy();
  }
});

test('025 keys the intents made before by their order id in lower case (beyond ASCII too) and logs versions and answers of attempts; down undoes it', async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    await rollBackThrough(knex, '025-console-search-and-delivery-log');
    t.false(await knex.schema.hasColumn('payment_intents', 'merchant_order_key'));
    const intent = (id: string, order: string) => ({
      id,
      merchant_id: 'mch_before',
      mode: 'test',
      amount: 100,
      currency: 'THB',
      merchant_order_id: order,
      status: 'created',
      metadata: '{}',
      created_at: 0,
      updated_at: 0,
      version: 0,
    });
    for (const row of [intent('pi_A', 'ORD-24053'), intent('pi_B', 'ÄÖ-Ünï'), intent('pi_C', 'order_1')]) await knex('payment_intents').insert(row);

    await migrateLatest(knex);
    t.deepEqual(await knex('payment_intents').select('id', 'merchant_order_key').orderBy('id'), [
      { id: 'pi_A', merchant_order_key: 'ord-24053' },
      { id: 'pi_B', merchant_order_key: 'äö-ünï' },
      { id: 'pi_C', merchant_order_key: 'order_1' },
    ]);
    t.true(await knex.schema.hasColumn('webhook_delivery_attempts', 'api_version'));
    t.true(await knex.schema.hasColumn('webhook_delivery_attempts', 'response_body'));

    await rollBackThrough(knex, '025-console-search-and-delivery-log');
    t.false(await knex.schema.hasColumn('payment_intents', 'merchant_order_key'));
    t.false(await knex.schema.hasColumn('webhook_delivery_attempts', 'response_body'));
    await migrateLatest(knex);
    t.is((await knex('knex_migrations').select('name')).length, MIGRATION_NAMES.length);
  } finally {
    await database.destroy();
  }
});

test('026 adds the permissions of restricted keys; keys made before keep NULL (secret keys); down removes the column', async (t) => {
  const database = await createTestDatabase();
  const { knex } = database;
  try {
    await rollBackThrough(knex, '026-restricted-api-keys');
    t.false(await knex.schema.hasColumn('api_keys', 'permissions'));
    await knex('api_keys').insert({ id: 'ak_before', merchant_id: 'mch_before', mode: 'test', prefix: 'sk_test_AAAAAAAA', secret_digest: 'd', created_at: 0 });
    await migrateLatest(knex);
    t.deepEqual(await knex('api_keys').where({ id: 'ak_before' }).select('permissions'), [{ permissions: null }]);
    await rollBackThrough(knex, '026-restricted-api-keys');
    t.false(await knex.schema.hasColumn('api_keys', 'permissions'));
    await migrateLatest(knex);
    t.is((await knex('knex_migrations').select('name')).length, MIGRATION_NAMES.length);
  } finally {
    await database.destroy();
  }
});

test('027 adds the trace contexts: one per subject, replaced by the next step, purged by age; down removes the table', async (t) => {
  const database = await createTestDatabase();
  try {
    const contexts = createSqlStorage(database.knex).traceContexts;
    const first = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const next = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    await contexts.record('pi_1', first, new Date(1_000));
    t.is(await contexts.find('pi_1'), first);
    await contexts.record('pi_1', next, new Date(5_000));
    t.is(await contexts.find('pi_1'), next);
    await contexts.record('evt_1', first, new Date(2_000));
    t.is(await contexts.purgeBefore(new Date(3_000)), 1);
    t.is(await contexts.find('evt_1'), undefined);
    t.is(await contexts.find('pi_1'), next);
    await traceContexts.down?.(database.knex);
    t.false(await database.knex.schema.hasTable('trace_contexts'));
    await traceContexts.up(database.knex);
    t.true(await database.knex.schema.hasTable('trace_contexts'));
  } finally {
    await database.destroy();
  }
});
