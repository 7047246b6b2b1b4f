import { token } from './token';

/**
 * The transaction a unit of work hands to its work. Storage ports are singletons; `bind` gives
 * the work its own view of them whose statements run in this transaction. The transaction is
 * passed, never looked up: no async context (AsyncLocalStorage) is kept per request.
 */
export interface Transaction {
  /**
   * `target` as seen inside this transaction: every storage port it reaches (through a plain
   * object such as a use case's `deps`, or an object's fields) runs its statements here, and a
   * unit of work it reaches joins this one. Objects that reach no storage come back as they are.
   * A bound object must not be used after its unit of work ends: it throws.
   */
  bind<T>(target: T): T;
}

/**
 * Writes that belong together (an intent, its event, the idempotency answer) commit together.
 */
export interface UnitOfWork {
  /**
   * Runs `work` in one transaction: every repository call made through `transaction.bind(…)`
   * commits when `work` resolves and rolls back when it throws; a unit of work bound to a
   * transaction (reached through `bind`) joins it. `work` must do storage only: it may be run
   * again, whole, with a new transaction, when the database gives the transaction up for
   * contention (a deadlock, a lock wait timeout, a cluster's certification failure) or a
   * repository reports a ConcurrentUpdateError, so it must not call channels, send mail or
   * change anything outside the database. A run that still cannot commit after a few tries is
   * CoreError `unavailable` (503 with Retry-After).
   */
  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the unit of work this one is bound to has committed (never if it rolls
   * back); on a unit of work bound to no transaction, at once. For what must not happen inside a
   * transaction, such as telling a channel to void an order. Failures of the callback are its own
   * to handle: they never undo the commit. Only the run that committed counts: what a run queued
   * before it was rolled back and run again is dropped with it.
   */
  afterCommit(callback: () => Promise<void>): void;
}
export const UnitOfWork = token<UnitOfWork>('UnitOfWork');
