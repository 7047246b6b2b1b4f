import type { UnitOfWork } from '@payments/core';
import type { InMemoryStore } from './in-memory-store';

/** All or nothing over the in-memory tables, one unit of work at a time. */
export class InMemoryUnitOfWork implements UnitOfWork {
  constructor(private readonly store: InMemoryStore) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.store.transaction(work);
  }
}
