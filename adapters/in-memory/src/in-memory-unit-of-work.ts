import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnitOfWork } from '@payments/core';
import type { InMemoryStore } from './in-memory-store';

/** All or nothing over the in-memory tables, one unit of work at a time. */
export class InMemoryUnitOfWork implements UnitOfWork {
  /** The after-commit callbacks of the outermost unit of work running in this async context. */
  private readonly callbacks = new AsyncLocalStorage<Array<() => Promise<void>>>();

  constructor(private readonly store: InMemoryStore) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.callbacks.getStore()) return this.store.transaction(work);
    const callbacks: Array<() => Promise<void>> = [];
    const result = await this.callbacks.run(callbacks, () => this.store.transaction(work));
    for (const callback of callbacks) await callback().catch(() => undefined);
    return result;
  }

  afterCommit(callback: () => Promise<void>): void {
    const waiting = this.callbacks.getStore();
    if (waiting) waiting.push(callback);
    else void callback().catch(() => undefined);
  }
}
