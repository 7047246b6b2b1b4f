import type { Transaction, UnitOfWork } from '@payments/core';
import type { KnexContext } from './knex-context';

/**
 * One transaction per outermost `run`, handed to the work; a unit of work bound to a transaction
 * (through `transaction.bind`) joins it. Deadlocks, lock wait timeouts, a cluster's certification
 * failures (and SQLITE_BUSY of concurrent processes on one file) are normal outcomes of
 * concurrent writers, as are the ConcurrentUpdateErrors of version checks and guard keys: the
 * context runs the whole work again with a new transaction (`runRetrying`), which the port allows
 * because the work is storage-only, and answers 503 once the retries run out.
 */
export class KnexUnitOfWork implements UnitOfWork {
  constructor(readonly context: KnexContext) {}

  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    return this.context.inTransaction(work);
  }

  afterCommit(callback: () => Promise<void>): void {
    // Each run of the work has a transaction of its own: a run that is rolled back and retried
    // leaves its callbacks behind, and only the committed run's are called.
    const transaction = this.context.transaction;
    if (transaction) transaction.afterCommit(callback);
    else void callback().catch(() => undefined);
  }
}
