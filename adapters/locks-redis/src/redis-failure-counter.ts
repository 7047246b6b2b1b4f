import { randomUUID } from 'node:crypto';
import type { FailureCounter, FailureReservation, FailureTally, FailureWindow } from '@payments/core';
import type { RedisClient } from './redis-client';
import { callRedis, RedisScript } from './redis-command';

export interface RedisFailureCounterOptions {
  /** Put before every key as given, so several services or test runs can share one Redis (default `payments:failures:`). */
  keyPrefix?: string;
  /** Deadline for each Redis command (default 2000 ms). */
  commandTimeoutMs?: number;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/*
 * A sorted set per key: one member per failure, scored by its time (the caller's clock, so every
 * process and a test's fake clock agree). Each script drops what left the window, keeps the
 * newest `limit`, and answers the tally in one atomic step across every API process. The key
 * expires a window after its last failure, so idle keys cost nothing.
 *
 * KEYS[1] the set; ARGV[1] now (ms); ARGV[2] window (ms); ARGV[3] limit; ARGV[4] member to add
 * (empty: only read); ARGV[5] '1' to add it only while the set is under the limit (a
 * reservation: the check and the add in one step, so a burst cannot all pass the check first).
 * Returns { failures, blockedForMs, added (1 or 0) }.
 */
const TALLY = new RedisScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local added = 0
if ARGV[4] ~= '' and (ARGV[5] ~= '1' or redis.call('ZCARD', KEYS[1]) < limit) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(limit + 1))
  redis.call('PEXPIRE', KEYS[1], window)
  added = 1
end
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  return { count, 0, added }
end
local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return { count, math.max(1, tonumber(oldest[2]) + window - now), added }
`);

/**
 * Failure counts shared by every process on one Redis (sign-in throttling across API processes).
 * Any Redis failure surfaces as CoreError `api_error` (unavailable).
 */
export class RedisFailureCounter implements FailureCounter {
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;

  constructor(
    private readonly client: RedisClient,
    options: RedisFailureCounterOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'payments:failures:';
    this.commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  }

  async check(key: string, now: Date, window: FailureWindow): Promise<FailureTally> {
    const { failures, blockedForMs } = await this.run(key, now, window, '', false);
    return { failures, blockedForMs };
  }

  async record(key: string, now: Date, window: FailureWindow): Promise<FailureTally> {
    const { failures, blockedForMs } = await this.run(key, now, window, newMember(now), false);
    return { failures, blockedForMs };
  }

  async reserve(key: string, now: Date, window: FailureWindow): Promise<FailureReservation> {
    const member = newMember(now);
    const { failures, blockedForMs, added } = await this.run(key, now, window, member, true);
    return added ? { failures, blockedForMs, slot: member } : { failures, blockedForMs };
  }

  async release(key: string, slot: string): Promise<void> {
    await callRedis(() => this.client.zRem(this.keyPrefix + key, slot), this.commandTimeoutMs);
  }

  async clear(key: string): Promise<void> {
    await callRedis(() => this.client.del(this.keyPrefix + key), this.commandTimeoutMs);
  }

  private async run(key: string, now: Date, window: FailureWindow, member: string, onlyUnderLimit: boolean): Promise<FailureTally & { added: boolean }> {
    assertWindow(window);
    const reply = await callRedis(
      () =>
        TALLY.integers(
          this.client,
          [this.keyPrefix + key],
          [String(now.getTime()), String(Math.ceil(window.windowMs)), String(window.limit), member, onlyUnderLimit ? '1' : '0'],
        ),
      this.commandTimeoutMs,
    );
    const [failures, blockedForMs, added] = reply;
    return { failures, blockedForMs, added: added === 1 };
  }
}

/** A unique member: two failures in the same millisecond are two failures. */
function newMember(now: Date): string {
  return `${now.getTime()}:${randomUUID()}`;
}

function assertWindow(window: FailureWindow): void {
  if (!Number.isInteger(window.limit) || window.limit < 1 || !(window.windowMs > 0) || !Number.isFinite(window.windowMs)) {
    throw new RangeError(`A failure window needs a whole limit of at least 1 and a positive length, got ${JSON.stringify(window)}.`);
  }
}
