import type { Transaction, UnitOfWork } from '@payments/core';
import type { InMemoryStore } from './in-memory-store';

/** All or nothing over the in-memory tables, one unit of work at a time; one bound to a transaction joins it. */
export class InMemoryUnitOfWork implements UnitOfWork {
  constructor(readonly store: InMemoryStore) {}

  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.store.transaction(work);
  }

  afterCommit(callback: () => Promise<void>): void {
    const transaction = this.store.boundTo;
    if (transaction) transaction.afterCommit(callback);
    else void callback().catch(() => undefined);
  }
}
