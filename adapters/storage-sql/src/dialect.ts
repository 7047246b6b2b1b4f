import { Client, type Knex } from 'knex';
import type { SqlText } from './sql-statements';

/** The two database families we support; they differ in error codes, table options and URLs. */
export type SqlDialect = 'mysql' | 'sqlite';

/** The driver client of a knex instance or transaction, which knex types `any`. */
export function clientOf(knex: Knex): Knex.Client {
  const client: unknown = knex.client;
  if (!(client instanceof Client)) throw new TypeError('Not a knex instance: its client is not a knex Client.');
  return client;
}

/** Which family a knex instance (or one of its transactions) talks to. */
export function dialectOf(knex: Knex): SqlDialect {
  const client = clientOf(knex).config.client;
  if (client === 'mysql2' || client === 'mysql') return 'mysql';
  if (client === 'better-sqlite3' || client === 'sqlite3') return 'sqlite';
  throw new Error(`Unsupported knex client '${String(client)}'; use a mysql:// or sqlite: database URL.`);
}

/** The MySQL-family server behind a knex instance: their statement-level settings differ. */
export type MysqlFlavour = 'mariadb' | 'mysql';

const flavours = new WeakMap<Knex, Promise<MysqlFlavour>>();

/**
 * Asked once per knex instance (one `SELECT VERSION()`), then remembered. `version` asks it the
 * way the caller runs its statements (the driver's prepared statements, on the current
 * transaction's connection if there is one: taking another pooled connection while every
 * connection holds a transaction waiting for this answer would never end).
 */
export function mysqlFlavourOf(knex: Knex, version: () => Promise<string | undefined>): Promise<MysqlFlavour> {
  let flavour = flavours.get(knex);
  if (flavour === undefined) {
    flavour = version().then((text): MysqlFlavour => (/mariadb/i.test(text ?? '') ? 'mariadb' : 'mysql'));
    // A failed probe (the database was down) is asked again next time.
    flavour.catch(() => flavours.delete(knex));
    flavours.set(knex, flavour);
  }
  return flavour;
}

/**
 * An INSERT that fails at once with a lock wait timeout (errno 1205) instead of waiting when
 * another transaction holds the same key uncommitted: MariaDB can scope the timeout to the one
 * statement with 0; MySQL 8 takes a hint whose least value is 1 second.
 */
export function withoutLockWait(flavour: MysqlFlavour, insert: SqlText): SqlText {
  const sql =
    flavour === 'mariadb'
      ? `SET STATEMENT innodb_lock_wait_timeout=0 FOR ${insert.sql}`
      : insert.sql.replace(/^insert /i, 'insert /*+ SET_VAR(innodb_lock_wait_timeout=1) */ ');
  return { sql, bindings: insert.bindings };
}
