import type { FailureCounter, FailureReservation, FailureTally, FailureWindow } from '@payments/core';

// Sweeping at most once a minute keeps eviction a small constant cost per call.
const SWEEP_INTERVAL_MS = 60_000;

/** One recorded failure: when, and the slot name `release` takes it back by. */
interface Failure {
  readonly at: number;
  readonly slot: string;
}

/**
 * Failure counts within one process (the embedded mode and tests). Per key it keeps the last
 * `limit` failures only: older ones cannot decide anything the newer ones do not. Each method
 * reads and writes without awaiting in between, so `reserve` is atomic within the process.
 */
export class InMemoryFailureCounter implements FailureCounter {
  private readonly failures = new Map<string, { entries: Failure[]; windowMs: number }>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  private slots = 0;

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
    this.sweep(now.getTime());
    return tally(this.add(key, now.getTime(), window).entries, now.getTime(), window);
  }

  async reserve(key: string, now: Date, window: FailureWindow): Promise<FailureReservation> {
    assertWindow(window);
    const at = now.getTime();
    this.sweep(at);
    const live = this.live(key, at, window.windowMs);
    if (live.length >= window.limit) return tally(live, at, window);
    // Under the limit, so the new failure is among the newest `limit` and stays.
    const { entries, slot } = this.add(key, at, window);
    return { ...tally(entries, at, window), slot };
  }

  async release(key: string, slot: string): Promise<void> {
    const entry = this.failures.get(key);
    if (entry) entry.entries = entry.entries.filter((failure) => failure.slot !== slot);
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }

  /** Adds a failure at `at` under a new slot; `entries` are the key's failures in the window, oldest first, at most `limit`. */
  private add(key: string, at: number, window: FailureWindow): { entries: Failure[]; slot: string } {
    this.slots += 1;
    const slot = `slot_${this.slots}`;
    const entries = [...this.live(key, at, window.windowMs), { at, slot }].sort((a, b) => a.at - b.at).slice(-window.limit);
    this.failures.set(key, { entries, windowMs: window.windowMs });
    return { entries, slot };
  }

  private live(key: string, at: number, windowMs: number): Failure[] {
    return (this.failures.get(key)?.entries ?? []).filter((failure) => failure.at > at - windowMs);
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = at;
    for (const [key, entry] of this.failures) {
      if (!entry.entries.some((failure) => failure.at > at - entry.windowMs)) this.failures.delete(key);
    }
  }
}

/** `entries` sorted, in the window, at most `limit`: blocked until the oldest of the last `limit` leaves it. */
function tally(entries: readonly Failure[], at: number, window: FailureWindow): FailureTally {
  if (entries.length < window.limit) return { failures: entries.length, blockedForMs: 0 };
  const oldest = entries[entries.length - window.limit].at;
  return { failures: entries.length, blockedForMs: Math.max(1, oldest + window.windowMs - at) };
}

function assertWindow(window: FailureWindow): void {
  if (!Number.isInteger(window.limit) || window.limit < 1 || !(window.windowMs > 0) || !Number.isFinite(window.windowMs)) {
    throw new RangeError(`A failure window needs a whole limit of at least 1 and a positive length, got ${JSON.stringify(window)}.`);
  }
}
