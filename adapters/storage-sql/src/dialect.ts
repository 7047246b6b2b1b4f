import type { Knex } from 'knex';

/** The two database families we support; they differ in error codes, table options and URLs. */
export type SqlDialect = 'mysql' | 'sqlite';

/** Which family a knex instance (or one of its transactions) talks to. */
export function dialectOf(knex: Knex): SqlDialect {
  const client: unknown = knex.client.config.client;
  if (client === 'mysql2' || client === 'mysql') return 'mysql';
  if (client === 'better-sqlite3' || client === 'sqlite3') return 'sqlite';
  throw new Error(`Unsupported knex client '${String(client)}'; use a mysql:// or sqlite: database URL.`);
}
