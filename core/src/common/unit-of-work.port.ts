import { token } from './token';
/**
 * Writes that belong together (an intent, its event, the idempotency answer) commit together.
 */
export interface UnitOfWork {
  /**
   * Runs `work` in one transaction: every repository call made inside it, directly or through
   * nested `run` calls (which join the outer transaction), commits when `work` resolves and rolls
   * back when it throws. `work` must do storage only: it may be run again, whole, when the
   * database gives the transaction up for contention (a deadlock, a lock wait timeout, a cluster's
   * certification failure) or a repository reports a ConcurrentUpdateError, so it must not call
   * channels, send mail or change anything outside the database. A run that still cannot commit
   * after a few tries is CoreError `unavailable` (503 with Retry-After).
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the outermost unit of work around this call has committed (never if it
   * rolls back); outside any unit of work, at once. For what must not happen inside a
   * transaction, such as telling a channel to void an order. Failures of the callback are its own
   * to handle: they never undo the commit. Only the run that committed counts: what a run queued
   * before it was rolled back and run again is dropped with it.
   */
  afterCommit(callback: () => Promise<void>): void;
}
export const UnitOfWork = token<UnitOfWork>('UnitOfWork');
