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
}
export const UnitOfWork = Symbol('UnitOfWork');
