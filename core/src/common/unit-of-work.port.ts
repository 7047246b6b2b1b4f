import { token } from './token';
/**
 * Writes that belong together (an intent, its event, the idempotency answer) commit together.
 */
export interface UnitOfWork {
  /**
   * Runs `work` in one transaction: every repository call made inside it, directly or through
   * nested `run` calls (which join the outer transaction), commits when `work` resolves and rolls
   * back when it throws. `work` must do storage only: it may be run again when the database
   * reports a deadlock, so it must not call channels or send mail.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the outermost unit of work around this call has committed (never if it
   * rolls back); outside any unit of work, at once. For what must not happen inside a
   * transaction, such as telling a channel to void an order. Failures of the callback are its own
   * to handle: they never undo the commit.
   */
  afterCommit(callback: () => Promise<void>): void;
}
export const UnitOfWork = token<UnitOfWork>('UnitOfWork');
