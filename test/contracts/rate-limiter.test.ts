import test from 'ava';
import { CoreError } from '@payments/core';
import { InMemoryRateLimiter } from '@payments/in-memory';
import { connectRedis, disconnectRedis, RedisRateLimiter } from '@payments/locks-redis';
import { rateLimiterContract, realTime } from './rate-limiter.contract';
import { eventually, redisSuite, redisTestUrl } from './redis-test-support';

rateLimiterContract('in-memory', () => {
  // Each limiter on a clock of its own, moved only by the contract's waits.
  let now = Date.now();
  return {
    limiter: new InMemoryRateLimiter({ now: () => now }),
    wait: async (ms) => {
      now += ms;
    },
  };
});

test('in-memory: refills continuously at perSecond tokens a second', async (t) => {
  let now = 0;
  const limiter = new InMemoryRateLimiter({ now: () => now });
  for (let i = 0; i < 10; i += 1) t.true((await limiter.consume('k', 10)).allowed);
  t.deepEqual(await limiter.consume('k', 10), { allowed: false, retryAfterMs: 100 });
  now += 40;
  t.deepEqual(await limiter.consume('k', 10), { allowed: false, retryAfterMs: 60 });
  now += 60;
  t.deepEqual(await limiter.consume('k', 10), { allowed: true, retryAfterMs: 0 });
  now += 350;
  const decisions = await Promise.all(Array.from({ length: 5 }, () => limiter.consume('k', 10)));
  t.is(decisions.filter((d) => d.allowed).length, 3, '3.5 tokens refilled in 350 ms');
});

test('in-memory: idle buckets are dropped, so memory follows active keys only', async (t) => {
  let now = 0;
  const limiter = new InMemoryRateLimiter({ now: () => now });
  for (let i = 0; i < 1_000; i += 1) await limiter.consume(`client-${i}`, 5);
  t.is(limiter.trackedKeys, 1_000);
  now += 1_000;
  await limiter.consume('still-active', 5);
  t.is(limiter.trackedKeys, 1);
  // A dropped bucket comes back full, exactly as if it had been kept.
  const decisions = await Promise.all(Array.from({ length: 6 }, () => limiter.consume('client-0', 5)));
  t.is(decisions.filter((d) => d.allowed).length, 5);
});

test('redis: connecting to an unreachable Redis fails fast with CoreError unavailable', async (t) => {
  const started = Date.now();
  const error = await t.throwsAsync(connectRedis('redis://127.0.0.1:1', { connectTimeoutMs: 300 }), {
    instanceOf: CoreError,
  });
  t.is(error?.category, 'unavailable');
  t.true(Date.now() - started < 1_500);
});

if (redisTestUrl !== undefined) {
  const redis = redisSuite(redisTestUrl, 'rate');
  const { keyPrefix, connect } = redis;

  rateLimiterContract('redis', () => realTime(new RedisRateLimiter(redis.shared(), { keyPrefix })));

  test('redis: processes on separate connections share one bucket', async (t) => {
    const limiters = [new RedisRateLimiter(redis.shared(), { keyPrefix }), new RedisRateLimiter(await connect(), { keyPrefix })];
    const decisions = await Promise.all(Array.from({ length: 8 }, (_, i) => limiters[i % 2].consume('shared', 5)));
    t.is(decisions.filter((d) => d.allowed).length, 5);
  });

  test('redis: a bucket expires once it would be full again', async (t) => {
    const limiter = new RedisRateLimiter(redis.shared(), { keyPrefix });
    await limiter.consume('expiring', 10);
    const ttl = await redis.shared().pTTL(`${keyPrefix}expiring`);
    // One token of ten taken: full again in 100 ms.
    t.true(ttl > 0 && ttl <= 101, `PTTL ${ttl}`);
  });

  test('redis: a closed client fails with CoreError unavailable, not a driver error', async (t) => {
    const client = await connect();
    await disconnectRedis(client);
    const error = await t.throwsAsync(new RedisRateLimiter(client, { keyPrefix }).consume('closed', 5), {
      instanceOf: CoreError,
    });
    t.is(error?.category, 'unavailable');
  });

  test('redis: when Redis goes away, consume fails fast; when it returns, it works again', async (t) => {
    const { relay, client } = await redis.relayed(t);
    const limiter = new RedisRateLimiter(client, { keyPrefix, commandTimeoutMs: 300 });
    t.true((await limiter.consume('relay', 5)).allowed);

    await relay.cut();
    const started = Date.now();
    const down = await t.throwsAsync(limiter.consume('relay', 5), { instanceOf: CoreError });
    t.is(down?.category, 'unavailable');
    t.true(Date.now() - started < 250, `failed after ${Date.now() - started} ms`);

    await relay.listen();
    await eventually(() => client.isReady, 5_000);
    t.true((await limiter.consume('relay', 5)).allowed);
  });

  test('redis: a Redis that stops answering fails consume after the command timeout', async (t) => {
    const { relay, client } = await redis.relayed(t);
    const limiter = new RedisRateLimiter(client, { keyPrefix, commandTimeoutMs: 150 });
    relay.blackhole();
    const started = Date.now();
    const error = await t.throwsAsync(limiter.consume('silent', 5), { instanceOf: CoreError });
    const elapsed = Date.now() - started;
    t.is(error?.category, 'unavailable');
    t.true(elapsed >= 140 && elapsed < 1_000, `failed after ${elapsed} ms`);
  });
}
