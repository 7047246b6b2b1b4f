import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * Shared by the unit of work and every repository of one storage: the unit of work puts its
 * transaction here, and repositories query through it without being handed a transaction, so
 * core's ports stay free of storage types.
 */
export class KnexContext {
  private readonly transactions = new AsyncLocalStorage<Knex.Transaction>();

  constructor(readonly knex: Knex) {}

  /** The query builder to use now: the current unit of work's transaction, else the pool. */
  db(): Knex {
    return this.transactions.getStore() ?? this.knex;
  }

  /** The transaction of the unit of work running in this async context, if any. */
  currentTransaction(): Knex.Transaction | undefined {
    return this.transactions.getStore();
  }

  /** Runs `fn` with `trx` as the current transaction for every await inside it. */
  withTransaction<T>(trx: Knex.Transaction, fn: () => Promise<T>): Promise<T> {
    return this.transactions.run(trx, fn);
  }
}
