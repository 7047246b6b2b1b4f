/**
 * Driver error recognition for both drivers. Knex passes the driver's error through (with the SQL
 * prepended to the message), so the driver's `code` / `errno` are what we branch on.
 */

interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
}

function asDriverError(error: unknown): DriverError | undefined {
  return typeof error === 'object' && error !== null ? (error as DriverError) : undefined;
}

const MYSQL_DUPLICATE_ENTRY = 1062;
const MYSQL_LOCK_WAIT_TIMEOUT = 1205;
const MYSQL_DEADLOCK = 1213;

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

/**
 * True when the database gave up on the transaction for contention, not for its content: the
 * whole unit of work may be run again (MySQL deadlock 1213, lock wait timeout 1205, SQLITE_BUSY).
 */
export function isRetryableTransactionError(error: unknown): boolean {
  const driver = asDriverError(error);
  if (!driver) return false;
  if (driver.errno === MYSQL_DEADLOCK || driver.errno === MYSQL_LOCK_WAIT_TIMEOUT) return true;
  if (driver.code === 'ER_LOCK_DEADLOCK' || driver.code === 'ER_LOCK_WAIT_TIMEOUT') return true;
  return typeof driver.code === 'string' && driver.code.startsWith('SQLITE_BUSY');
}
