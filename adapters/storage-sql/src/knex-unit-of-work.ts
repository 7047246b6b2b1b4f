import type { UnitOfWork } from '@payments/core';
import type { KnexContext } from './knex-context';

/**
 * One knex transaction per outermost `run`; nested runs join it through the shared context.
 * Deadlocks, lock wait timeouts, a cluster's certification failures (and SQLITE_BUSY of
 * concurrent processes on one file) are normal outcomes of concurrent writers, as are the
 * ConcurrentUpdateErrors of version checks and guard keys: the context runs the whole work again
 * (`runRetrying`), which the port allows because the work is storage-only, and answers 503 once
 * the retries run out.
 */
export class KnexUnitOfWork implements UnitOfWork {
  constructor(private readonly context: KnexContext) {}

  /** Callbacks waiting for the commit of each outermost transaction. */
  private readonly pending = new WeakMap<object, Array<() => Promise<void>>>();

  afterCommit(callback: () => Promise<void>): void {
    const trx = this.context.currentTransaction();
    const waiting = trx ? this.pending.get(trx) : undefined;
    if (waiting) waiting.push(callback);
    else void callback().catch(() => undefined);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.context.currentTransaction()) return work();
    // Each run of the work queues into a list of its own: a run that is rolled back and retried
    // leaves its callbacks behind, and only the committed run's are called.
    let callbacks: Array<() => Promise<void>> = [];
    const result = await this.context.inTransaction(work, (trx) => {
      callbacks = [];
      this.pending.set(trx, callbacks);
    });
    for (const callback of callbacks) await callback().catch(() => undefined);
    return result;
  }
}
