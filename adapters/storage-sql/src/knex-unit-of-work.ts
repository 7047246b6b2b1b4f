import type { UnitOfWork } from '@payments/core';
import type { KnexContext } from './knex-context';
import { isRetryableTransactionError } from './sql-errors';

export interface KnexUnitOfWorkOptions {
  /** How many times a unit of work is run again after a deadlock or busy database (default 3). */
  readonly maxRetries?: number;
  /** First backoff in ms; doubles each retry, with full jitter (default 20). */
  readonly baseDelayMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One knex transaction per outermost `run`; nested runs join it through the shared context.
 * Deadlocks are a normal outcome of concurrent InnoDB writers (and SQLITE_BUSY of concurrent
 * processes on one file), so the outermost run retries the whole work a few times: the port
 * requires the work to be storage-only, which makes that safe.
 */
export class KnexUnitOfWork implements UnitOfWork {
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;

  constructor(
    private readonly context: KnexContext,
    options: KnexUnitOfWorkOptions = {},
  ) {
    this.maxRetries = options.maxRetries ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 20;
  }

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
    for (let attempt = 0; ; attempt += 1) {
      const callbacks: Array<() => Promise<void>> = [];
      try {
        const result = await this.context.inTransaction(work, (trx) => this.pending.set(trx, callbacks));
        for (const callback of callbacks) await callback().catch(() => undefined);
        return result;
      } catch (error) {
        if (attempt >= this.maxRetries || !isRetryableTransactionError(error)) throw error;
        await sleep(Math.random() * this.baseDelayMs * 2 ** attempt);
      }
    }
  }
}
