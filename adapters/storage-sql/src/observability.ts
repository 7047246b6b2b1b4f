import type { Knex } from 'knex';
import { MIGRATION_NAMES } from './migrations/migration-source';

const MIGRATIONS_TABLE = 'knex_migrations';

/**
 * Migrations this code knows that the database has not run yet. Read-only on purpose (knex's own
 * `migrate.list` creates its bookkeeping tables): a readiness probe must never write.
 */
export async function pendingMigrations(knex: Knex): Promise<string[]> {
  if (!(await knex.schema.hasTable(MIGRATIONS_TABLE))) return [...MIGRATION_NAMES];
  const rows = await knex<{ name: string }>(MIGRATIONS_TABLE).select('name');
  const done = new Set(rows.map((row) => row.name));
  return MIGRATION_NAMES.filter((name) => !done.has(name));
}

/** A trivial round trip: proves a pooled connection can be had and answers. */
export async function pingDatabase(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}

/**
 * Webhook deliveries due now and not leased: the relay's backlog, for the metrics gauge. Same
 * predicate as `claimDue`, counted instead of claimed.
 */
export async function countDueWebhookDeliveries(knex: Knex, now: Date): Promise<number> {
  const t = now.getTime();
  const [row] = await knex('webhook_deliveries')
    .where({ status: 'pending' })
    .where('next_retry_at', '<=', t)
    .where((q) => void q.whereNull('locked_until').orWhere('locked_until', '<=', t))
    .count<Array<{ n: number | string }>>({ n: '*' });
  return Number(row?.n ?? 0);
}
