import type { Knex } from 'knex';
import { clientOf, dialectOf, type SqlDialect } from './dialect';

/** A value a statement binds to one `?`. */
export type SqlValue = string | number | bigint | boolean | null | Date | Buffer;

/** A statement as the database gets it: SQL text with `?` placeholders, and one value per placeholder in order. */
export interface SqlText {
  readonly sql: string;
  readonly bindings: readonly SqlValue[];
}

/** What a statement can be given as: SQL text, or a knex query (compiled to SQL text, never run by knex). */
export type Statement = SqlText | Knex.QueryBuilder | Knex.Raw;

/** A bound LIMIT: MySQL 8 refuses `LIMIT ?` with the DOUBLE mysql2 sends for a number (MariaDB takes it). */
const BOUND_LIMIT = /\blimit \?/i;

/** True for a knex query or raw statement, which compile themselves with `toSQL()`. */
function isKnexQuery(statement: Statement): statement is Knex.QueryBuilder | Knex.Raw {
  return 'toSQL' in statement && typeof statement.toSQL === 'function';
}

/**
 * The SQL text of `statement`, in the driver's own placeholders (`toNative`: `?` for both of ours).
 * A LIMIT must be inlined (`.limit(n, INLINE)`): knex validates it as an integer then, and MySQL 8
 * takes it in a prepared statement.
 */
export function toSqlText(statement: Statement): SqlText {
  if (!isKnexQuery(statement)) return statement;
  const compiled = statement.toSQL();
  if (Array.isArray(compiled)) throw new TypeError('A statement must compile to one SQL statement.');
  const native = compiled.toNative();
  if (BOUND_LIMIT.test(native.sql)) throw new TypeError(`Inline the LIMIT of this statement (.limit(n, INLINE)): ${native.sql}`);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- knex's bindings are the values our builders were given
  return { sql: native.sql, bindings: native.bindings as readonly SqlValue[] };
}

/** The SQL text of one row's INSERT, per table and column list: built on first use, then looked up. */
const insertTexts = new Map<string, string>();

/**
 * The INSERT of `row` (column → value; an undefined value leaves its column to the default) into
 * `table`, as SQL text built once per table and column list: knex's builder and compiler cost
 * about ten times the lookup, on every insert of a request. Backquoted names read the same on
 * MySQL / MariaDB and SQLite.
 */
export function insertText(table: string, row: object): SqlText {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a row object's fields are its columns' values
  const values = row as Readonly<Record<string, SqlValue | undefined>>;
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  const key = `${table}(${columns.join(',')})`;
  let sql = insertTexts.get(key);
  if (sql === undefined) {
    sql = `insert into \`${table}\` (${columns.map((column) => `\`${column}\``).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    insertTexts.set(key, sql);
  }
  return { sql, bindings: columns.map((column) => values[column] ?? null) };
}

/** knex's option for `.limit(n, INLINE)`: the number is written into the SQL text, validated as an integer. */
export const INLINE = { skipBinding: true } as const;

/** What a write statement did. */
export interface WriteResult {
  /** Rows the statement matched (mysql2 connects with CLIENT_FOUND_ROWS, so an UPDATE to the same value counts); SQLite: rows changed. */
  readonly affectedRows: number;
  /** The AUTO_INCREMENT key (SQLite: the rowid) an INSERT of one row gave it; meaningless after another statement. */
  readonly insertId: number;
}

/** The slice of a mysql2 callback connection the runner uses. */
interface MysqlDriverConnection {
  execute(sql: string, values: readonly SqlValue[], callback: (error: Error | null, result?: unknown) => void): void;
  query(sql: string, callback: (error: Error | null, result?: unknown) => void): void;
}

/** The slice of a better-sqlite3 statement the runner uses. */
interface SqliteDriverStatement {
  readonly reader: boolean;
  all(...values: unknown[]): unknown[];
  run(...values: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

interface SqliteDriverConnection {
  prepare(sql: string): SqliteDriverStatement;
}

function isSqliteConnection(connection: object): connection is SqliteDriverConnection {
  return 'prepare' in connection && typeof connection.prepare === 'function' && !('execute' in connection);
}

function isMysqlConnection(connection: object): connection is MysqlDriverConnection {
  return 'execute' in connection && typeof connection.execute === 'function';
}

/** better-sqlite3 binds numbers, bigints, strings, buffers and null: knex's own conversion of the rest. */
function sqliteValue(value: SqlValue): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  return value;
}

function isSqliteRunResult(result: unknown): result is { changes: number; lastInsertRowid: number | bigint } {
  return typeof result === 'object' && result !== null && typeof (result as { changes?: unknown }).changes === 'number';
}

function isWriteResult(result: unknown): result is { affectedRows: number; insertId: number } {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && typeof (result as { affectedRows?: unknown }).affectedRows === 'number';
}

/**
 * Sees every statement a runner sends, around its run: the composition root's tracing (a span per
 * statement) when tracing is on. It is given the SQL text with its placeholders and never the
 * bound values.
 */
export interface StatementTracer {
  trace<T>(sql: string, dialect: SqlDialect, run: () => Promise<T>): Promise<T>;
}

/**
 * Runs statements on a pooled driver connection with the driver's own prepared statements:
 * mysql2's `execute` (prepared on the server once per connection and SQL text, then run by
 * reference with binary values) or better-sqlite3's `prepare` (kept per SQL text by the pool's
 * cache, see createKnex). knex builds SQL (and owns the pool, the schema and the migrations) but
 * runs nothing on a request: its runner cost more CPU than the statements it ran.
 *
 * Observers see each statement as they saw knex's: the instance emits `query` (the SQL with its
 * placeholders and a transaction's id) before it runs and `query-error` when it fails, whose
 * listener keeps bound values out of the error (createKnex).
 */
export class SqlRunner {
  readonly dialect: SqlDialect;

  constructor(
    readonly knex: Knex,
    private readonly tracer?: StatementTracer,
  ) {
    this.dialect = dialectOf(knex);
  }

  /** The rows a SELECT (or another statement that answers rows) reads. */
  async rows<T>(connection: object, statement: Statement): Promise<T[]> {
    const result = await this.run(connection, toSqlText(statement));
    if (!Array.isArray(result)) throw new TypeError('The statement answered no rows: run a write with write().');
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the statement selects the columns of T
    return result as T[];
  }

  /** What an INSERT, UPDATE or DELETE changed. */
  async write(connection: object, statement: Statement): Promise<WriteResult> {
    const result = await this.run(connection, toSqlText(statement));
    if (isSqliteRunResult(result)) return { affectedRows: result.changes, insertId: Number(result.lastInsertRowid) };
    if (!isWriteResult(result)) throw new TypeError('The statement answered rows: read them with rows().');
    return { affectedRows: result.affectedRows, insertId: Number(result.insertId) };
  }

  /** A statement that cannot be prepared (BEGIN, COMMIT, ROLLBACK, SET): sent as text, with no values. */
  async control(connection: object, sql: string): Promise<void> {
    await this.run(connection, { sql, bindings: [] }, 'text');
  }

  private run(connection: object, text: SqlText, protocol: 'prepared' | 'text' = 'prepared'): Promise<unknown> {
    // Without a tracer (tracing off, the default) a statement pays one field read for it.
    if (this.tracer) return this.tracer.trace(text.sql, this.dialect, () => this.execute(connection, text, protocol));
    return this.execute(connection, text, protocol);
  }

  private execute(connection: object, text: SqlText, protocol: 'prepared' | 'text'): Promise<unknown> {
    const event = { sql: text.sql, bindings: text.bindings, __knexTxId: (connection as { __knexTxId?: string }).__knexTxId, method: 'raw' };
    this.knex.emit('query', event);
    const failed = (error: unknown): never => {
      this.knex.emit('query-error', error, event);
      throw error;
    };
    if (isSqliteConnection(connection)) {
      try {
        const prepared = connection.prepare(text.sql);
        const values = text.bindings.map(sqliteValue);
        return Promise.resolve(prepared.reader ? prepared.all(...values) : prepared.run(...values));
      } catch (error) {
        return Promise.resolve().then(() => failed(error));
      }
    }
    if (!isMysqlConnection(connection)) throw new TypeError('Not a mysql2 or better-sqlite3 connection.');
    const mysql = connection;
    return new Promise<unknown>((resolve, reject) => {
      const done = (error: Error | null, result?: unknown): void => (error ? reject(error) : resolve(result));
      if (protocol === 'text') mysql.query(text.sql, done);
      else mysql.execute(text.sql, text.bindings, done);
    }).catch(failed);
  }

  /** A connection from knex's pool for `work`, given back afterwards (an outage: knex's KnexTimeoutError). */
  async withPooledConnection<T>(work: (connection: object) => Promise<T>): Promise<T> {
    const client = clientOf(this.knex);
    const connection: unknown = await client.acquireConnection();
    if (typeof connection !== 'object' || connection === null) throw new TypeError('The knex pool handed out no connection.');
    try {
      return await work(connection);
    } finally {
      client.releaseConnection(connection);
    }
  }
}
