import { token } from './token';
/** Mutual exclusion across every process of the service (Redis) or within one (embedded). */
export interface LockManager {
  /**
   * Runs `fn` while holding the lock `key`, released in `finally`. Waits up to `waitMs`
   * (default 5 s) for a holder to finish, then throws CoreError `api_error` (unavailable, retry
   * later). The lock expires after `ttlMs` even if its holder died, so a crashed process never
   * blocks a key for long; storage checks versions so an expired holder cannot overwrite.
   */
  withLock<T>(key: string, ttlMs: number, fn: () => Promise<T>, options?: { waitMs?: number }): Promise<T>;
}
export const LockManager = token<LockManager>('LockManager');
