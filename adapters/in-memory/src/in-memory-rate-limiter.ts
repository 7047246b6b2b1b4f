import type { RateLimitDecision, RateLimiter } from '@payments/core';

export interface InMemoryRateLimiterOptions {
  /** Milliseconds on a clock that never goes back; tests pass a fake one. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
  /** When the bucket will be full again: from then on it is the same as no bucket. */
  fullAt: number;
}

// Sweeping at most once a second keeps the cost of eviction a small constant per request.
const SWEEP_INTERVAL_MS = 1_000;

/** Token buckets within one process (the embedded mode and tests). */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private lastSweep: number;

  constructor(options: InMemoryRateLimiterOptions = {}) {
    this.now = options.now ?? ((): number => performance.now());
    this.lastSweep = this.now();
  }

  /** How many keys hold a bucket that is not yet full (idle buckets are dropped). */
  get trackedKeys(): number {
    return this.buckets.size;
  }

  async consume(key: string, perSecond: number): Promise<RateLimitDecision> {
    return this.take(key, perSecond);
  }

  private take(key: string, perSecond: number): RateLimitDecision {
    assertRate(perSecond);
    const now = this.now();
    this.sweep(now);
    const capacity = capacityOf(perSecond);
    const bucket = this.buckets.get(key);
    let tokens = capacity;
    if (bucket !== undefined) {
      const elapsed = Math.max(0, now - bucket.at);
      tokens = Math.min(capacity, bucket.tokens + (elapsed * perSecond) / 1000);
    }
    if (tokens < 1) {
      // Refusing takes nothing, so a client hammering an empty bucket waits no longer for it.
      return { allowed: false, retryAfterMs: Math.ceil(((1 - tokens) * 1000) / perSecond) };
    }
    tokens -= 1;
    this.buckets.set(key, { tokens, at: now, fullAt: now + ((capacity - tokens) * 1000) / perSecond });
    return { allowed: true, retryAfterMs: 0 };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.fullAt <= now) this.buckets.delete(key);
    }
  }
}

/**
 * One second of burst, as the port says, but never less than one token: below one request a
 * second (say 0.5/s) a bucket of `perSecond` could never allow anything.
 */
function capacityOf(perSecond: number): number {
  return Math.max(1, perSecond);
}

function assertRate(perSecond: number): void {
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
    throw new RangeError(`A rate limit must be a positive number of requests a second, got ${perSecond}.`);
  }
}
