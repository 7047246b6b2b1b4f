import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from './database-url';

/** The slice of a mysql2 callback connection that pool set-up needs. */
interface MysqlConnection {
  query(sql: string, callback: (error: Error | null, rows?: unknown) => void): void;
}

/** The slice of a better-sqlite3 Database that pool set-up needs. */
interface SqliteConnection {
  pragma(source: string): unknown;
  prepare(source: string): unknown;
}

/** Statements kept per SQLite connection; knex's SQL texts are parameterised, so few are distinct. */
const PREPARED_STATEMENTS_KEPT = 500;

/**
 * knex prepares every statement anew (`connection.prepare(sql)` per query), and SQLite's parse and
 * plan of a statement cost more than running it: keep the prepared ones by SQL text, the least
 * recently used dropped first. Reusing one is safe here: better-sqlite3 runs a statement to the
 * end synchronously, and SQLite prepares it again by itself after a schema change.
 */
function withPreparedStatementCache(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const kept = new Map<string, unknown>();
  connection.prepare = (source: string): unknown => {
    let statement = kept.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      if (kept.size >= PREPARED_STATEMENTS_KEPT) {
        const [oldest] = kept.keys();
        kept.delete(oldest);
      }
    } else {
      kept.delete(source);
    }
    kept.set(source, statement);
    return statement;
  };
}

type PoolDone = (error: Error | null, connection: unknown) => void;

export interface KnexOptions {
  /**
   * MySQL / MariaDB sessions in REPEATABLE READ with MariaDB's `innodb_snapshot_isolation`
   * (10.6.18, 10.11.8 and later): a write to a row that another transaction changed after this
   * one's snapshot fails (1020) instead of waiting and going on, the first-committer-wins rule a
   * Galera cluster's certification applies between its nodes. Test support only: the tests of
   * what the database refuses between the writers of a multi-writer cluster run one server this
   * way. The service runs READ COMMITTED.
   */
  readonly firstCommitterWins?: boolean;
  /**
   * Longest a statement may run on the server, in ms (MariaDB `max_statement_time`, MySQL
   * `MAX_EXECUTION_TIME`, which MySQL applies to SELECTs only); 0 sets no limit. Default
   * {@link DEFAULT_STATEMENT_TIMEOUT_MS}. Migrations run on an instance with 0.
   */
  readonly statementTimeoutMs?: number;
  /**
   * How long a query waits for a pooled MySQL / MariaDB connection before it fails with knex's
   * KnexTimeoutError (an outage: 503). Default {@link DEFAULT_ACQUIRE_TIMEOUT_MS}. SQLite keeps
   * knex's 60 s: its one connection is every query's, so waiting for it is normal.
   */
  readonly acquireTimeoutMs?: number;
  /**
   * `wsrep_sync_wait` of each session on a Galera node (`@@wsrep_on` ON): `auto` (the default) sets
   * 1, so a read waits until the node applied every write the cluster committed before it (a
   * request reads its own writes whichever node took them); a number 0–15 sets that value. A server
   * without wsrep (plain MariaDB, MySQL) is left untouched either way.
   */
  readonly wsrepSyncWait?: WsrepSyncWait;
}

export type WsrepSyncWait = 'auto' | number;

/** Generous: no request or job statement of ours comes near it; only a hung or overloaded server does. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/**
 * Prepared statements a MySQL / MariaDB connection keeps. The service's distinct statements on a
 * request or job path are a few dozen; 100 per connection leaves a server room for 160 pooled
 * connections (10 per process) under its default `max_prepared_stmt_count`.
 */
export const MAX_PREPARED_STATEMENTS_PER_CONNECTION = 100;
/** A few seconds: a request waiting longer for a connection is better answered 503 than left hanging. */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 5_000;
/** `wsrep_sync_wait` bit 0: reads (and SHOW) wait for the node to catch up with the cluster. */
const WSREP_SYNC_WAIT_READS = 1;

/** What a new connection learns about its server before its session is set up. */
export interface MysqlServerFacts {
  /** `VERSION()`: MariaDB names itself in it, MySQL does not. */
  readonly version: string;
  /** `@@wsrep_on`: undefined when the server has no such variable (MySQL). */
  readonly wsrepOn: boolean | undefined;
}

/** The statements every pooled MySQL / MariaDB connection runs first, whatever its server. */
function mysqlFixedSessionStatements(options: KnexOptions): string[] {
  // READ COMMITTED keeps InnoDB from taking gap locks on our lookups, which would otherwise turn
  // concurrent inserts of different intents into deadlocks. Timestamps are epoch ms, but UTC keeps
  // any NOW() an operator runs unambiguous.
  const isolation = options.firstCommitterWins
    ? ['SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ', 'SET SESSION innodb_snapshot_isolation = ON']
    : ['SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'];
  return [...isolation, "SET time_zone = '+00:00'"];
}

/**
 * The session settings that depend on the server: the statement timeout in its flavour's words,
 * and `wsrep_sync_wait` on a Galera node only (elsewhere the variable is absent or meaningless).
 */
export function mysqlServerSessionStatements(server: MysqlServerFacts, options: KnexOptions): string[] {
  const statements: string[] = [];
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  // Set even when 0: a server-wide default must not cut what was asked to run unbounded (migrations).
  statements.push(
    /mariadb/i.test(server.version) ? `SET SESSION max_statement_time = ${timeoutMs / 1000}` : `SET SESSION MAX_EXECUTION_TIME = ${Math.round(timeoutMs)}`,
  );
  if (server.wsrepOn === true) {
    const wanted = options.wsrepSyncWait ?? 'auto';
    statements.push(`SET SESSION wsrep_sync_wait = ${wanted === 'auto' ? WSREP_SYNC_WAIT_READS : wanted}`);
  }
  return statements;
}

/** One round trip that works on MySQL and MariaDB alike (`SELECT @@wsrep_on` fails on MySQL). */
const SERVER_FACTS_QUERY = "SHOW VARIABLES WHERE Variable_name IN ('version', 'wsrep_on')";

function serverFactsOf(rows: unknown): MysqlServerFacts {
  const values = new Map<string, string>();
  if (Array.isArray(rows))
    for (const row of rows) {
      const entry: unknown = row;
      if (typeof entry === 'object' && entry !== null && 'Variable_name' in entry && typeof entry.Variable_name === 'string' && 'Value' in entry)
        values.set(entry.Variable_name.toLowerCase(), String(entry.Value));
    }
  const wsrepOn = values.get('wsrep_on');
  return { version: values.get('version') ?? '', wsrepOn: wsrepOn === undefined ? undefined : wsrepOn.toUpperCase() === 'ON' };
}

function mysqlSession(options: KnexOptions): (connection: MysqlConnection, done: PoolDone) => void {
  return (connection, done) => {
    const run = (statements: readonly string[], then: () => void): void => {
      const next = (index: number): void => {
        const statement = statements[index];
        if (statement === undefined) return then();
        connection.query(statement, (error) => (error ? done(error, connection) : next(index + 1)));
      };
      next(0);
    };
    run(mysqlFixedSessionStatements(options), () =>
      connection.query(SERVER_FACTS_QUERY, (error, rows) => {
        if (error) return done(error, connection);
        run(mysqlServerSessionStatements(serverFactsOf(rows), options), () => done(null, connection));
      }),
    );
  };
}

function sqliteSession(connection: SqliteConnection, done: PoolDone): void {
  try {
    // WAL lets readers in other processes (the admin CLI) work while the service writes;
    // busy_timeout makes a writer wait for the file lock instead of failing at once.
    connection.pragma('journal_mode = WAL');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('foreign_keys = ON');
    withPreparedStatementCache(connection);
    done(null, connection);
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)), connection);
  }
}

/** MySQL / MariaDB quote the refused value in ER_DUP_ENTRY: `Duplicate entry '<value>' for key '<index>'`. */
const DUPLICATE_ENTRY_VALUE = /Duplicate entry '.*' for key '/s;

function withoutDuplicateValue(text: unknown): unknown {
  return typeof text === 'string' ? text.replace(DUPLICATE_ENTRY_VALUE, "Duplicate entry [value not shown] for key '") : text;
}

/**
 * Keeps bound values out of query errors, which end up in logs (a 5xx's cause, a failed job): a
 * bound value may be a sealed secret, a token digest, a stored answer, an email or a payer's
 * details. `compileSqlOnError: false` makes knex put the statement with its `?` placeholders into
 * the message. Two copies of values come from mysql2 and are removed here: the statement with
 * every value inlined as `sql` (set back to the placeholder form), and the refused value of a
 * duplicate key (the index name, which `isDuplicateKeyError` reads, stays). Transactions of the
 * instance share this listener.
 */
function withoutBoundValuesInErrors(knex: Knex): Knex {
  knex.on('query-error', (error: unknown, query: { sql?: unknown }) => {
    if (typeof error !== 'object' || error === null) return;
    const driver = error as { message?: unknown; sql?: unknown; sqlMessage?: unknown };
    if ('sql' in driver) driver.sql = typeof query.sql === 'string' ? query.sql : undefined;
    if (typeof driver.message === 'string') driver.message = withoutDuplicateValue(driver.message);
    if ('sqlMessage' in driver) driver.sqlMessage = withoutDuplicateValue(driver.sqlMessage);
  });
  return knex;
}

/**
 * A knex instance for `PAYMENTS_DATABASE_URL`: `mysql://` / `mariadb://` (MySQL 8, MariaDB 10.6+,
 * through mysql2) or `sqlite:<path>` (better-sqlite3; the file's directory is created). SQLite gets
 * one connection: better-sqlite3 is synchronous, so more would only contend for the file lock.
 */
export function createKnex(databaseUrl: string, options: KnexOptions = {}): Knex {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.dialect === 'sqlite') {
    if (target.filename !== ':memory:') mkdirSync(dirname(target.filename), { recursive: true });
    return withoutBoundValuesInErrors(
      knexFactory({
        client: 'better-sqlite3',
        connection: { filename: target.filename },
        useNullAsDefault: true,
        compileSqlOnError: false,
        // An in-memory database lives only as long as its connection, so keep that one open.
        pool: { min: target.filename === ':memory:' ? 1 : 0, max: 1, afterCreate: sqliteSession },
      }),
    );
  }
  return withoutBoundValuesInErrors(
    knexFactory({
      client: 'mysql2',
      compileSqlOnError: false,
      connection: {
        host: target.host,
        port: target.port,
        user: target.user,
        ...(target.password === undefined ? {} : { password: target.password }),
        database: target.database,
        charset: 'utf8mb4',
        // BIGINT columns (epoch ms, minor units, sequences) come back as numbers while they are
        // exact, as strings beyond 2^53 instead of silently rounded.
        supportBigNumbers: true,
        // Statements run prepared (SqlRunner: mysql2 `execute`), kept per connection by SQL text. A
        // server holds at most `max_prepared_stmt_count` (16382 by default) for all its sessions,
        // and every length of an IN list is a text of its own: keep the most recently used few per
        // connection (mysql2 closes the one it drops), which the request path's statements fit in.
        maxPreparedStatements: MAX_PREPARED_STATEMENTS_PER_CONNECTION,
      },
      acquireConnectionTimeout: options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
      pool: { min: 0, max: 10, afterCreate: mysqlSession(options) },
    }),
  );
}
