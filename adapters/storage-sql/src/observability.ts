import type { Knex } from 'knex';
import { dialectOf } from './dialect';
import { MIGRATION_NAMES } from './migrations/migration-source';
import { SqlRunner } from './sql-statements';

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
 * Whether the database node may serve now, beyond answering: `not_synced` for a Galera node
 * (`@@wsrep_on` ON) that is not `Synced` with its cluster (joining, a donor, desynced) or not
 * ready (`wsrep_ready` OFF: outside the primary component). Anything without wsrep is `ok`.
 */
export type DatabaseNodeState = 'ok' | 'not_synced';

/** The decision, from the server's variables and status (names lower case, as SHOW gives them). */
export function databaseNodeStateOf(variables: ReadonlyMap<string, string>, status: ReadonlyMap<string, string>): DatabaseNodeState {
  if (variables.get('wsrep_on')?.toUpperCase() !== 'ON') return 'ok';
  const synced = status.get('wsrep_local_state_comment') === 'Synced';
  const ready = status.get('wsrep_ready')?.toUpperCase() === 'ON';
  return synced && ready ? 'ok' : 'not_synced';
}

async function showValues(knex: Knex, sql: string): Promise<Map<string, string>> {
  const [rows] = await knex.raw<[Array<{ Variable_name: string; Value: unknown }>]>(sql);
  return new Map(rows.map((row) => [row.Variable_name.toLowerCase(), String(row.Value)]));
}

/** Readiness: the node's state (two SHOWs on a Galera node, one on another MySQL server, none on SQLite). */
export async function databaseNodeState(knex: Knex): Promise<DatabaseNodeState> {
  if (dialectOf(knex) !== 'mysql') return 'ok';
  // SHOW, not `SELECT @@wsrep_on`: MySQL has no such variable and would refuse the statement.
  const variables = await showValues(knex, "SHOW GLOBAL VARIABLES WHERE Variable_name = 'wsrep_on'");
  if (variables.get('wsrep_on')?.toUpperCase() !== 'ON') return 'ok';
  const status = await showValues(knex, "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment')");
  return databaseNodeStateOf(variables, status);
}

/**
 * Webhook deliveries due now and not leased: the relay's backlog, for the metrics gauge. Same
 * predicate as `claimDue`, counted instead of claimed.
 */
export async function countDueWebhookDeliveries(knex: Knex, now: Date): Promise<number> {
  const t = now.getTime();
  const query = knex('webhook_deliveries')
    .where({ status: 'pending' })
    .where('next_retry_at', '<=', t)
    .where((q) => void q.whereNull('locked_until').orWhere('locked_until', '<=', t))
    .count({ n: '*' });
  const runner = new SqlRunner(knex);
  const [row] = await runner.withPooledConnection((connection) => runner.rows<{ n: number | string }>(connection, query));
  return Number(row?.n ?? 0);
}
