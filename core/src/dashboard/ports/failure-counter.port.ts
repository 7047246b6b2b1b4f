import { token } from '../../common';
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

/** The answer of `reserve`: the tally, and the slot taken when the key was under its limit. */
export interface FailureReservation extends FailureTally {
  /**
   * Present when a failure was recorded in advance (the tally includes it): hand it to `release`
   * if the attempt turns out not to be a failure. Absent when the key was at its limit already;
   * then nothing was recorded.
   */
  readonly slot?: string;
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
  /**
   * Checks and records in one atomic step: under the limit, records a failure of `key` at `now`
   * and answers its slot; at the limit, records nothing. So of any number of concurrent attempts,
   * at most `limit` get a slot, where a `check` followed by a `record` would let a burst through.
   */
  reserve(key: string, now: Date, window: FailureWindow): Promise<FailureReservation>;
  /** Takes back the failure a `reserve` recorded (the attempt succeeded); a slot already gone is ignored. */
  release(key: string, slot: string): Promise<void>;
  /** Forgets every failure of `key`. */
  clear(key: string): Promise<void>;
}
export const FailureCounter = token<FailureCounter>('FailureCounter');
