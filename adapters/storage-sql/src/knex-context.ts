import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { clientOf, dialectOf } from './dialect';
import { INLINE, insertText, SqlRunner, type SqlText, type Statement, type StatementTracer, type WriteResult } from './sql-statements';
import { runRetrying, type TransactionRetryOptions } from './transaction-retry';

/** A pooled driver connection as knex hands it out; knex marks one inside a transaction for observers. */
type PooledConnection = { __knexTxId?: string } & object;

/** The pool hands out driver connections (objects); knex types them `any`. */
const isPooledConnection = (value: unknown): value is PooledConnection => typeof value === 'object' && value !== null;

let transactionCount = 0;

/**
 * A knex whose queries all run on `connection`: table queries through `.connection()`, raw
 * statements through the connection knex's runner reads from any query. It is what the unit of
 * work's transaction hands to repositories; it cannot open transactions of its own.
 */
function boundTo(knex: Knex, connection: PooledConnection): Knex {
  const table = (name: string) => knex(name).connection(connection);
  const raw = (sql: string, bindings?: Knex.RawBinding[] | Knex.ValueDict) => {
    const query = bindings === undefined ? knex.raw(sql) : knex.raw(sql, bindings);
    // knex's runner takes a query's connection from this field when it has one.
    return Object.assign(query, { _connection: connection });
  };
  const bound = Object.assign(table, { raw, client: clientOf(knex), fn: knex.fn, ref: knex.ref.bind(knex), isTransaction: true });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the part of Knex repositories use; it opens no transactions, runs no migrations
  return bound as unknown as Knex;
}

/** The unit of work's transaction: a knex bound to its connection (for builders), and the connection statements run on. */
export interface OpenTransaction {
  readonly trx: Knex;
  readonly connection: object;
}

/**
 * BEGIN, `work` and COMMIT on one pooled connection that every statement of `work` runs on;
 * ROLLBACK when it throws. Plain statements on the connection rather than `knex.transaction`,
 * which builds a knex instance per transaction: that alone cost more CPU than the four
 * statements of a payment intent's create.
 */
export async function onOneConnection<T>(runner: SqlRunner, work: (transaction: OpenTransaction) => Promise<T>): Promise<T> {
  return runner.withPooledConnection(async (connection) => {
    if (!isPooledConnection(connection)) throw new TypeError('The knex pool handed out no connection.');
    const trx = boundTo(runner.knex, connection);
    transactionCount += 1;
    connection.__knexTxId = `uow${transactionCount}`;
    try {
      await runner.control(connection, 'BEGIN');
      try {
        const result = await work({ trx, connection });
        await runner.control(connection, 'COMMIT');
        return result;
      } catch (error) {
        // A connection that broke mid-transaction is marked by knex and dropped by the pool on
        // its next validation; the server rolls back what it held.
        await runner.control(connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      delete connection.__knexTxId;
    }
  });
}

export interface KnexContextOptions extends TransactionRetryOptions {
  /**
   * False makes `FOR UPDATE` and `SKIP LOCKED` plain reads: what a transaction on another node of
   * a multi-writer cluster (Galera) sees of this node's row locks, which is nothing. For tests of
   * what the database itself refuses; the service always locks (default true).
   */
  readonly rowLocks?: boolean;
  /** Sees every statement of the storage (tracing); none by default. */
  readonly statementTracer?: StatementTracer;
}

/**
 * Shared by the unit of work and every repository of one storage: the unit of work puts its
 * transaction here, and repositories query through it without being handed a transaction, so
 * core's ports stay free of storage types.
 */
export class KnexContext {
  private readonly transactions = new AsyncLocalStorage<OpenTransaction>();
  private readonly runner: SqlRunner;

  constructor(
    readonly knex: Knex,
    private readonly options: KnexContextOptions = {},
  ) {
    this.runner = new SqlRunner(knex, options.statementTracer);
  }

  /** The query builder to use now: the current unit of work's transaction, else the pool. */
  db(): Knex {
    return this.transactions.getStore()?.trx ?? this.knex;
  }

  /** The transaction of the unit of work running in this async context, if any. */
  currentTransaction(): Knex | undefined {
    return this.transactions.getStore()?.trx;
  }

  /**
   * The rows `statement` reads, run with the driver's prepared statements (see SqlRunner) on the
   * current unit of work's connection, else on a pooled one.
   */
  rows<T>(statement: Statement | SqlText): Promise<T[]> {
    const open = this.transactions.getStore();
    return open
      ? this.runner.rows<T>(open.connection, statement)
      : this.runner.withPooledConnection((connection) => this.runner.rows<T>(connection, statement));
  }

  /** The first row `statement` reads, if any. */
  async firstRow<T>(statement: Statement | SqlText): Promise<T | undefined> {
    const [row] = await this.rows<T>(statement);
    return row;
  }

  /** What the INSERT, UPDATE or DELETE `statement` changed, run like `rows`. */
  write(statement: Statement | SqlText): Promise<WriteResult> {
    const open = this.transactions.getStore();
    return open ? this.runner.write(open.connection, statement) : this.runner.withPooledConnection((connection) => this.runner.write(connection, statement));
  }

  /**
   * Runs `work` in the current transaction, or in one of its own (see onOneConnection) that
   * every `db()` inside it answers. A transaction of its own is run again, whole, when the
   * database gives it up for contention (`runRetrying`); inside another, the outermost one does
   * that. `onTransaction` sees each transaction this call opens, before the work runs in it.
   */
  inTransaction<T>(work: () => Promise<T>, onTransaction: (trx: Knex) => void = () => undefined): Promise<T> {
    if (this.currentTransaction()) return work();
    return runRetrying(this.options, () =>
      onOneConnection(this.runner, (transaction) => {
        onTransaction(transaction.trx);
        return this.transactions.run(transaction, work);
      }),
    );
  }

  /**
   * `statements` that commit on their own (no transaction is open): run again like a transaction
   * when the database gives them up for contention. Inside a transaction it just runs them: the
   * error is the transaction's, and its outermost run retries it whole.
   */
  retrying<T>(statements: () => Promise<T>): Promise<T> {
    return this.currentTransaction() ? statements() : runRetrying(this.options, statements);
  }

  /**
   * `query` reading its rows locked until the transaction ends (`FOR UPDATE`) on MySQL / MariaDB.
   * SQLite has no row locks: its write transactions already run one at a time.
   */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- knex's own bound on a row type
  lockedRead<TRecord extends {}, TResult>(query: Knex.QueryBuilder<TRecord, TResult>): Knex.QueryBuilder<TRecord, TResult> {
    return this.locksRows() ? query.forUpdate() : query;
  }

  /** `query` taking only rows no other transaction holds locked (`FOR UPDATE SKIP LOCKED`), else a plain read. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- knex's own bound on a row type
  skippingLockedRead<TRecord extends {}, TResult>(query: Knex.QueryBuilder<TRecord, TResult>): Knex.QueryBuilder<TRecord, TResult> {
    return this.locksRows() ? query.forUpdate().skipLocked() : query;
  }

  private locksRows(): boolean {
    return this.options.rowLocks !== false && dialectOf(this.db()) === 'mysql';
  }
}

/** A repository over one table (`tableName`): `table()` queries it in the unit of work's transaction while one runs. */
export abstract class KnexTable<Row extends object> {
  protected abstract readonly tableName: string;

  constructor(protected readonly context: KnexContext) {}

  protected table() {
    return this.context.db()<Row>(this.tableName);
  }

  /** The rows `statement` reads (see KnexContext.rows). */
  protected rows<T = Row>(statement: Statement | SqlText): Promise<T[]> {
    return this.context.rows<T>(statement);
  }

  /** The first row `statement` reads; a knex query gets its `LIMIT 1` here. */
  protected first<T = Row>(statement: Knex.QueryBuilder | SqlText): Promise<T | undefined> {
    return this.context.firstRow<T>('toSQL' in statement ? statement.limit(1, INLINE) : statement);
  }

  /** Inserts one row into the table (see insertText). */
  protected insertRow(row: object): Promise<WriteResult> {
    return this.context.write(insertText(this.tableName, row));
  }

  /** How many rows the INSERT, UPDATE or DELETE `statement` changed. */
  protected async changed(statement: Statement | SqlText): Promise<number> {
    return (await this.context.write(statement)).affectedRows;
  }
}
