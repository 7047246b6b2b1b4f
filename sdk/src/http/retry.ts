/** Backoff between retries: exponential from `initial`, capped at `max`, with full jitter. */
export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 500, maxDelayMs: 8_000 };

/** The longest Retry-After the SDK waits out; beyond it the RateLimitError is thrown instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Delay before retry number `attempt` (1 for the first retry). Jitter spreads the retries of many
 * clients that failed together, so they do not return together; half the delay is kept so a retry
 * never comes back at once.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whether an answer is worth another try with the same Idempotency-Key: rate limits, 5xx, and a
 * 409 saying the same key is still being worked on (the first request's answer will be replayed).
 */
export function isRetryableStatus(status: number, code: string | undefined): boolean {
  return status === 429 || status >= 500 || (status === 409 && code === 'idempotency_key_in_use');
}
