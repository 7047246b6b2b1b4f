/** How many failures a key may collect within a sliding window before it is refused. */
export interface FailureWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export interface FailureTally {
  /** Failures recorded under the key within the window ending now (at most `limit` are kept). */
  readonly failures: number;
  /** 0 while `failures` is under the limit; else milliseconds until it falls under it again. */
  readonly blockedForMs: number;
}

/**
 * Counts failures (wrong passwords, say) per key over a sliding window, shared by every process
 * that uses the same backend. Time is the caller's (`now`), so every process and a fake clock
 * agree on which failures are still in the window.
 */
export interface FailureCounter {
  /** The tally of `key` at `now`; records nothing. */
  check(key: string, now: Date, window: FailureWindow): Promise<FailureTally>;
  /** Records one failure of `key` at `now` and returns the tally including it. */
  record(key: string, now: Date, window: FailureWindow): Promise<FailureTally>;
  /** Forgets every failure of `key`. */
  clear(key: string): Promise<void>;
}
export const FailureCounter = Symbol('FailureCounter');
