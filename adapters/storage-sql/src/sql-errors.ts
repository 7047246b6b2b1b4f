import { ConcurrentUpdateError } from '@payments/core';

/**
 * Driver error recognition for both drivers. Knex passes the driver's error through (with the SQL
 * prepended to the message), so the driver's `code` / `errno` are what we branch on.
 */

interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  readonly name?: unknown;
}

function asDriverError(error: unknown): DriverError | undefined {
  return typeof error === 'object' && error !== null ? error : undefined;
}

const MYSQL_DUPLICATE_ENTRY = 1062;
const MYSQL_LOCK_WAIT_TIMEOUT = 1205;
const MYSQL_DEADLOCK = 1213;
/** ER_CHECKREAD: MariaDB's snapshot isolation refused a write to a row changed since this transaction's snapshot. */
const MYSQL_RECORD_CHANGED = 1020;
/** ER_ERROR_DURING_COMMIT: the COMMIT failed; rolled back, and worth running again when the handler's error was a deadlock. */
const MYSQL_ERROR_DURING_COMMIT = 1180;
/** The storage engine's HA_ERR_LOCK_DEADLOCK, as ER_ERROR_DURING_COMMIT quotes it: `Got error 149 … during COMMIT`. */
const HANDLER_LOCK_DEADLOCK = /\bGot error 149\b/;

/** Where a unique rule lives, so a duplicate can be told apart from one on another column. */
export interface UniqueConstraint {
  /** The index name, as MySQL / MariaDB name it in ER_DUP_ENTRY messages. */
  readonly indexName: string;
  /** `table.column` of the constraint's columns, as SQLite names them in its messages. */
  readonly sqliteColumns: readonly string[];
}

/**
 * True when the database refused a write because a unique or primary key already holds the value
 * (MySQL ER_DUP_ENTRY 1062; SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY). With `constraint`,
 * only when that constraint is the one violated.
 */
export function isDuplicateKeyError(error: unknown, constraint?: UniqueConstraint): boolean {
  const driver = asDriverError(error);
  if (!driver) return false;
  const message = typeof driver.message === 'string' ? driver.message : '';
  if (driver.errno === MYSQL_DUPLICATE_ENTRY || driver.code === 'ER_DUP_ENTRY') {
    // MariaDB says "for key 'name'", MySQL 8 "for key 'table.name'".
    return constraint === undefined || new RegExp(`for key '([^']*\\.)?${constraint.indexName}'`).test(message);
  }
  if (driver.code === 'SQLITE_CONSTRAINT_UNIQUE' || driver.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    if (constraint === undefined) return true;
    const failed = /constraint failed: (.*)$/.exec(message)?.[1] ?? '';
    const columns = failed.split(',').map((column) => column.trim());
    return constraint.sqliteColumns.length === columns.length && constraint.sqliteColumns.every((column) => columns.includes(column));
  }
  return false;
}

/** True when a statement waited for a row lock longer than it was allowed (MySQL 1205). */
export function isLockWaitTimeout(error: unknown): boolean {
  const driver = asDriverError(error);
  return driver?.errno === MYSQL_LOCK_WAIT_TIMEOUT || driver?.code === 'ER_LOCK_WAIT_TIMEOUT';
}

/**
 * True when the transaction was given up for contention, not for its content, and nothing of it
 * committed: the whole transaction may be run again and decides afresh on what the others
 * committed. That is
 * - 1213 ER_LOCK_DEADLOCK: an InnoDB deadlock, and also how Galera reports a transaction that
 *   failed certification (another node committed a write to the same row or unique key first)
 *   or that a replicated write aborted;
 * - 1205 ER_LOCK_WAIT_TIMEOUT;
 * - 1020 ER_CHECKREAD: MariaDB with `innodb_snapshot_isolation` (REPEATABLE READ) refused a write
 *   to a row another transaction changed after this one's snapshot, the same first-committer-wins
 *   rule as certification;
 * - 1180 ER_ERROR_DURING_COMMIT naming the engine's deadlock (error 149): the COMMIT failed and
 *   rolled back. Other 1180s, and 1181 (an error during ROLLBACK, which only follows another
 *   error), are not retried;
 * - SQLITE_BUSY (another process holds the file's write lock);
 * - ConcurrentUpdateError: a version check, a guard's unique key or a conditional mark found that
 *   another transaction got there first.
 */
export function isRetryableTransactionError(error: unknown): boolean {
  if (error instanceof ConcurrentUpdateError) return true;
  const driver = asDriverError(error);
  if (!driver) return false;
  if (driver.errno === MYSQL_DEADLOCK || driver.errno === MYSQL_LOCK_WAIT_TIMEOUT || driver.errno === MYSQL_RECORD_CHANGED) return true;
  if (driver.code === 'ER_LOCK_DEADLOCK' || driver.code === 'ER_LOCK_WAIT_TIMEOUT' || driver.code === 'ER_CHECKREAD') return true;
  if (driver.errno === MYSQL_ERROR_DURING_COMMIT || driver.code === 'ER_ERROR_DURING_COMMIT') {
    return typeof driver.message === 'string' && HANDLER_LOCK_DEADLOCK.test(driver.message);
  }
  return typeof driver.code === 'string' && driver.code.startsWith('SQLITE_BUSY');
}

/** ER_UNKNOWN_COM_ERROR as Galera uses it: "WSREP has not yet prepared node for application use". */
const MYSQL_WSREP_NOT_PREPARED = 1047;

/** True when a Galera node refused the statement because it is not part of a synced primary component. */
export function isDatabaseNodeNotReadyError(error: unknown): boolean {
  return asDriverError(error)?.errno === MYSQL_WSREP_NOT_PREPARED;
}

/** Socket-level failures: nothing is listening, the peer went away, or the network dropped us. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** mysql2's own codes for a connection that is gone, closed, or never finished its handshake. */
const MYSQL_CLIENT_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
]);

/**
 * Server answers meaning "not now" rather than "not this": shutting down (1053), too many
 * connections (1040), this connection was killed (1927, MariaDB), server gone / lost (2006, 2013),
 * a Galera node outside the cluster's primary component (1047, "WSREP has not yet prepared
 * node for application use"), and a statement cut by the session's statement timeout (1969
 * MariaDB `max_statement_time`, 3024 MySQL `MAX_EXECUTION_TIME`): none of ours runs that long
 * unless the server is overloaded or stalled.
 */
const MYSQL_UNAVAILABLE_ERRNOS = new Set([1040, 1047, 1053, 1927, 1969, 2006, 2013, 3024]);
const MYSQL_UNAVAILABLE_CODES = new Set([
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'CR_SERVER_GONE_ERROR',
  'CR_SERVER_LOST',
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

/**
 * True when the database could not be reached or dropped the connection, as opposed to refusing
 * the statement: the work did not happen (or its outcome is unknown and the caller's retry, under
 * the same idempotency key, finds out), and the same request may succeed once the database is
 * back. Covers mysql2's socket and protocol errors, MariaDB's shutdown and connection-limit
 * answers, a statement timeout, knex's pool acquire timeout, and a command on a connection mysql2
 * already closed.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  const driver = asDriverError(error);
  if (!driver) return false;
  if (typeof driver.code === 'string' && (NETWORK_CODES.has(driver.code) || MYSQL_CLIENT_CODES.has(driver.code) || MYSQL_UNAVAILABLE_CODES.has(driver.code)))
    return true;
  if (typeof driver.errno === 'number' && MYSQL_UNAVAILABLE_ERRNOS.has(driver.errno)) return true;
  // knex: every pool slot busy or failing to connect until acquireConnectionTimeout ran out.
  if (driver.name === 'KnexTimeoutError') return true;
  const message = typeof driver.message === 'string' ? driver.message : '';
  // mysql2 (no code): a query on a connection whose socket already closed.
  return /Can't add new command when connection is in closed state|Connection lost: The server closed the connection/.test(message);
}
