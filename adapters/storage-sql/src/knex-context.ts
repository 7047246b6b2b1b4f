import { BIND_TO_TRANSACTION, StorageTransaction, type BindsToTransaction } from '@payments/core';
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
 * One transaction on one pooled connection: what the unit of work hands to its work, and what a
 * bound KnexContext runs its statements in.
 */
export class KnexTransaction extends StorageTransaction {
  constructor(readonly open: OpenTransaction) {
    super();
  }
}

/**
 * Shared by the unit of work and every repository of one storage: the pool's statements, and
 * the transactions. Outside a transaction a context runs each statement on a pooled connection;
 * `transaction.bind(port)` gives a port a context bound to the transaction's connection (see
 * StorageTransaction), so the transaction is handed through the ports, never looked up.
 */
export class KnexContext implements BindsToTransaction {
  private readonly runner: SqlRunner;

  constructor(
    readonly knex: Knex,
    private readonly options: KnexContextOptions = {},
    /** The transaction this context runs in; none for the pool's context. */
    readonly transaction?: KnexTransaction,
    runner?: SqlRunner,
  ) {
    this.runner = runner ?? new SqlRunner(knex, options.statementTracer);
  }

  [BIND_TO_TRANSACTION](transaction: StorageTransaction): KnexContext {
    if (!(transaction instanceof KnexTransaction)) throw new TypeError('A SQL storage port can only run in a transaction of the SQL storage.');
    if (this.transaction === transaction) return this;
    if (this.transaction) throw new Error('A storage port bound to one transaction cannot be bound to another.');
    return new KnexContext(this.knex, this.options, transaction, this.runner);
  }

  /** The open transaction of this context, if it is bound to one. */
  private openTransaction(): OpenTransaction | undefined {
    const transaction = this.transaction;
    if (!transaction) return undefined;
    transaction.assertOpen();
    return transaction.open;
  }

  /** The query builder to use: the transaction's when this context is bound to one, else the pool's. */
  db(): Knex {
    return this.openTransaction()?.trx ?? this.knex;
  }

  /**
   * The rows `statement` reads, run with the driver's prepared statements (see SqlRunner) on the
   * transaction's connection, else on a pooled one.
   */
  rows<T>(statement: Statement | SqlText): Promise<T[]> {
    const open = this.openTransaction();
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
    const open = this.openTransaction();
    return open ? this.runner.write(open.connection, statement) : this.runner.withPooledConnection((connection) => this.runner.write(connection, statement));
  }

  /**
   * Runs `work` in this context's transaction, or in one of its own (see onOneConnection). A
   * transaction of its own is run again, whole, with a new transaction, when the database gives
   * it up for contention (`runRetrying`); inside another, the outermost one does that. The
   * transaction ends (and, committed, runs what waited for its commit) before this resolves.
   */
  inTransaction<T>(work: (transaction: KnexTransaction) => Promise<T>): Promise<T> {
    if (this.openTransaction() && this.transaction) return work(this.transaction);
    return runRetrying(this.options, async () => {
      let transaction: KnexTransaction | undefined;
      try {
        const result = await onOneConnection(this.runner, (open) => {
          transaction = new KnexTransaction(open);
          return work(transaction);
        });
        await transaction?.end(true);
        return result;
      } catch (error) {
        await transaction?.end(false);
        throw error;
      }
    });
  }

  /**
   * `statements` that commit on their own (no transaction is open): run again like a transaction
   * when the database gives them up for contention. Inside a transaction it just runs them: the
   * error is the transaction's, and its outermost run retries it whole.
   */
  retrying<T>(statements: () => Promise<T>): Promise<T> {
    return this.transaction ? statements() : runRetrying(this.options, statements);
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
    return this.options.rowLocks !== false && dialectOf(this.knex) === 'mysql';
  }
}

/**
 * Runs `work` with `repository` in a transaction: the one its context is bound to, else one of
 * its own (see KnexContext.inTransaction). For a repository method whose statements must commit
 * together even when no unit of work runs around it.
 */
export function inRepositoryTransaction<R extends { readonly context: KnexContext }, T>(repository: R, work: (bound: R) => Promise<T>): Promise<T> {
  return repository.context.inTransaction((transaction) => work(transaction.bind(repository)));
}

/** A repository over one table (`tableName`): `table()` queries it in the unit of work's transaction while one runs. */
export abstract class KnexTable<Row extends object> {
  protected abstract readonly tableName: string;

  constructor(readonly context: KnexContext) {}

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
