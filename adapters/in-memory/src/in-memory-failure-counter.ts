import type { FailureCounter, FailureTally, FailureWindow } from '@payments/core';

// Sweeping at most once a minute keeps eviction a small constant cost per call.
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Failure counts within one process (the embedded mode and tests). Per key it keeps the times of
 * the last `limit` failures only: older ones cannot decide anything the newer ones do not.
 */
export class InMemoryFailureCounter implements FailureCounter {
  private readonly failures = new Map<string, { times: number[]; windowMs: number }>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  /** How many keys hold failures still in their window as of the last sweep. */
  get trackedKeys(): number {
    return this.failures.size;
  }

  async check(key: string, now: Date, window: FailureWindow): Promise<FailureTally> {
    assertWindow(window);
    this.sweep(now.getTime());
    return tally(this.live(key, now.getTime(), window.windowMs), now.getTime(), window);
  }

  async record(key: string, now: Date, window: FailureWindow): Promise<FailureTally> {
    assertWindow(window);
    const at = now.getTime();
    this.sweep(at);
    const times = [...this.live(key, at, window.windowMs), at].sort((a, b) => a - b).slice(-window.limit);
    this.failures.set(key, { times, windowMs: window.windowMs });
    return tally(times, at, window);
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }

  private live(key: string, at: number, windowMs: number): number[] {
    return (this.failures.get(key)?.times ?? []).filter((time) => time > at - windowMs);
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = at;
    for (const [key, entry] of this.failures) {
      if (!entry.times.some((time) => time > at - entry.windowMs)) this.failures.delete(key);
    }
  }
}

/** `times` sorted, in the window, at most `limit`: blocked until the oldest of the last `limit` leaves it. */
function tally(times: readonly number[], at: number, window: FailureWindow): FailureTally {
  if (times.length < window.limit) return { failures: times.length, blockedForMs: 0 };
  const oldest = times[times.length - window.limit] as number;
  return { failures: times.length, blockedForMs: Math.max(1, oldest + window.windowMs - at) };
}

function assertWindow(window: FailureWindow): void {
  if (!Number.isInteger(window.limit) || window.limit < 1 || !(window.windowMs > 0) || !Number.isFinite(window.windowMs)) {
    throw new RangeError(`A failure window needs a whole limit of at least 1 and a positive length, got ${JSON.stringify(window)}.`);
  }
}
