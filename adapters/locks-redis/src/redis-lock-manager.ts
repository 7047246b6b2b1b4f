import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isCoreError, LockBusyError, type CoreError, type LockManager } from '@payments/core';
import type { RedisClient } from './redis-client';
import { callRedis, RedisScript, redisUnavailable } from './redis-command';

export interface RedisLockManagerOptions {
  /** Put before every lock key as given, so several services or test runs can share one Redis (default `payments:lock:`). */
  keyPrefix?: string;
  /** Deadline for each Redis command (default 2000 ms). */
  commandTimeoutMs?: number;
  /**
   * Told when a lock could not be released (Redis went away meanwhile). The work itself is done,
   * so `withLock` still returns its result; the lock frees itself when its TTL runs out.
   */
  onReleaseError?: (key: string, error: CoreError) => void;
}

const DEFAULT_WAIT_MS = 5_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;
const MIN_RETRY_DELAY_MS = 5;
const MAX_RETRY_DELAY_MS = 50;

// Deleting by key alone could free a lock that expired and was taken by someone else meanwhile.
const COMPARE_AND_DELETE = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

/**
 * Locks shared by every process on one Redis: `SET key token NX PX ttl` to take, compare-and-delete
 * on the token to release. Waiters poll with short jittered pauses, so a freed lock is taken again
 * within tens of milliseconds. Any Redis failure surfaces as CoreError `api_error` (unavailable).
 */
export class RedisLockManager implements LockManager {
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;
  private readonly onReleaseError: ((key: string, error: CoreError) => void) | undefined;

  constructor(
    private readonly client: RedisClient,
    options: RedisLockManagerOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'payments:lock:';
    this.commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    this.onReleaseError = options.onReleaseError;
  }

  async withLock<T>(key: string, ttlMs: number, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) {
      throw new RangeError(`Lock TTL must be a positive number of milliseconds, got ${ttlMs}.`);
    }
    const redisKey = this.keyPrefix + key;
    const token = randomUUID();
    await this.acquire(redisKey, token, Math.ceil(ttlMs), Math.max(0, options.waitMs ?? DEFAULT_WAIT_MS));
    try {
      return await fn();
    } finally {
      await this.release(key, redisKey, token);
    }
  }

  private async acquire(redisKey: string, token: string, ttlMs: number, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt += 1) {
      if (await this.trySet(redisKey, token, ttlMs)) return;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new LockBusyError();
      }
      await sleep(Math.min(remaining, retryDelay(attempt)));
    }
  }

  private async trySet(redisKey: string, token: string, ttlMs: number): Promise<boolean> {
    try {
      const reply = await callRedis(
        () => this.client.set(redisKey, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } }),
        this.commandTimeoutMs,
      );
      return reply === 'OK';
    } catch (error) {
      // A SET that timed out may still have landed; free it rather than block the key for a TTL.
      void this.compareAndDelete(redisKey, token).catch(() => undefined);
      throw error;
    }
  }

  private async release(key: string, redisKey: string, token: string): Promise<void> {
    try {
      await this.compareAndDelete(redisKey, token);
    } catch (error) {
      // Throwing here would report finished work as failed (and mask fn's own error); the TTL frees the lock.
      this.onReleaseError?.(key, isCoreError(error) ? error : redisUnavailable(error));
    }
  }

  private compareAndDelete(redisKey: string, token: string): Promise<unknown> {
    return callRedis(() => COMPARE_AND_DELETE.run(this.client, [redisKey], [token]), this.commandTimeoutMs);
  }
}

/** Grows from 5 to 50 ms with full jitter, so waiters on one key do not retry in lockstep. */
function retryDelay(attempt: number): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, MIN_RETRY_DELAY_MS * 2 ** Math.min(attempt, 4));
  return MIN_RETRY_DELAY_MS + Math.random() * (ceiling - MIN_RETRY_DELAY_MS);
}
