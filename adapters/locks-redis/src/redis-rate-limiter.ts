import type { RateLimitDecision, RateLimiter } from '@payments/core';
import type { RedisClient } from './redis-client';
import { callRedis, RedisScript } from './redis-command';

export interface RedisRateLimiterOptions {
  /** Put before every bucket key as given, so several services or test runs can share one Redis (default `payments:rate:`). */
  keyPrefix?: string;
  /** Deadline for each Redis command (default 2000 ms). */
  commandTimeoutMs?: number;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/*
 * One script, so reading, refilling and taking are atomic across every API process. Time comes
 * from Redis (TIME) because the processes' own clocks disagree. A bucket is full again at most one
 * second after its last use (capacity is one second of refill), and a missing bucket reads as
 * full, so it may expire then: idle keys cost nothing.
 *
 * KEYS[1] bucket; ARGV[1] refill per second; ARGV[2] capacity. Returns { allowed, retryAfterMs }.
 */
const TAKE_TOKEN = new RedisScript(`
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
else
  tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
end
if tokens < 1 then
  return { 0, math.ceil((1 - tokens) * 1000 / rate) }
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 1000 / rate) + 1)
return { 1, 0 }
`);

/**
 * Token buckets shared by every process on one Redis. Any Redis failure surfaces as CoreError
 * `api_error` (unavailable); whether to let the request through then is the caller's choice.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;

  constructor(
    private readonly client: RedisClient,
    options: RedisRateLimiterOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'payments:rate:';
    this.commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  }

  async consume(key: string, perSecond: number): Promise<RateLimitDecision> {
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
      throw new RangeError(`A rate limit must be a positive number of requests a second, got ${perSecond}.`);
    }
    // Never below one token: under one request a second a bucket of `perSecond` would allow nothing.
    const capacity = Math.max(1, perSecond);
    const reply = await callRedis(() => TAKE_TOKEN.integers(this.client, [this.keyPrefix + key], [String(perSecond), String(capacity)]), this.commandTimeoutMs);
    const [allowed, retryAfterMs] = reply;
    return { allowed: allowed === 1, retryAfterMs };
  }
}
