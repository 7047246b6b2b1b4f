import { token } from './token';
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** When refused: milliseconds until one request would be allowed. */
  readonly retryAfterMs: number;
}

/** A token bucket per key, shared by every process that uses the same backend. */
export interface RateLimiter {
  /**
   * Takes one token from the bucket `key`, which refills at `perSecond` tokens a second and holds
   * at most `perSecond` (one second of burst). Refuses without taking when it is empty.
   */
  consume(key: string, perSecond: number): Promise<RateLimitDecision>;
}
export const RateLimiter = token<RateLimiter>('RateLimiter');
