import test from 'ava';
import { CoreError } from '@payments/core';
import { InMemoryLockManager } from '@payments/in-memory';
import { connectRedis, disconnectRedis, RedisLockManager } from '@payments/locks-redis';
import { lockManagerContract } from './lock-manager.contract';
import { eventually, redisSuite, redisTestUrl } from './redis-test-support';

lockManagerContract('in-memory', () => new InMemoryLockManager());

// Needs no server: nothing listens on port 1.
test('redis: connecting to an unreachable Redis fails fast with CoreError unavailable', async (t) => {
  const started = Date.now();
  const error = await t.throwsAsync(connectRedis('redis://127.0.0.1:1', { connectTimeoutMs: 300 }), {
    instanceOf: CoreError,
  });
  const elapsed = Date.now() - started;
  t.is(error?.code, 'api_error');
  t.is(error?.category, 'unavailable');
  t.is(error?.retryAfterSeconds, 1);
  t.true(elapsed < 1_500, `gave up after ${elapsed} ms`);
});

if (redisTestUrl !== undefined) {
  const redis = redisSuite(redisTestUrl, 'locks');
  const { keyPrefix, connect } = redis;

  lockManagerContract('redis', () => new RedisLockManager(redis.shared(), { keyPrefix }));

  test('redis: processes on separate connections exclude each other', async (t) => {
    const managers = [new RedisLockManager(redis.shared(), { keyPrefix }), new RedisLockManager(await connect(), { keyPrefix })];
    let active = 0;
    let maxActive = 0;
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        managers[i % 2].withLock('two-clients', 2_000, async () => {
          active += 1;
          maxActive = Math.max(maxActive, active);
          await new Promise((resolve) => setTimeout(resolve, 5));
          active -= 1;
        }),
      ),
    );
    t.is(maxActive, 1);
  });

  test('redis: a released lock leaves no key behind', async (t) => {
    const locks = new RedisLockManager(redis.shared(), { keyPrefix });
    const redisKey = `${keyPrefix}leftover`;
    const duringTtl = await locks.withLock('leftover', 10_000, () => redis.shared().pTTL(redisKey));
    t.true(duringTtl > 9_000 && duringTtl <= 10_000, `PTTL while held: ${duringTtl}`);
    t.is(await redis.shared().exists(redisKey), 0);
  });

  test('redis: a closed client fails with CoreError unavailable, not a driver error', async (t) => {
    const client = await connect();
    await disconnectRedis(client);
    const locks = new RedisLockManager(client, { keyPrefix });
    const error = await t.throwsAsync(
      locks.withLock('closed', 1_000, async () => 'never'),
      { instanceOf: CoreError },
    );
    t.is(error?.category, 'unavailable');
  });

  test('redis: when Redis goes away, locks fail fast; when it returns, they work again', async (t) => {
    const { relay, client } = await redis.relayed(t);
    const locks = new RedisLockManager(client, { keyPrefix, commandTimeoutMs: 300 });
    t.is(await locks.withLock('relay', 1_000, async () => 'up'), 'up');

    await relay.cut();
    const started = Date.now();
    const down = await t.throwsAsync(
      locks.withLock('relay', 1_000, async () => 'never'),
      { instanceOf: CoreError },
    );
    t.is(down?.category, 'unavailable');
    t.true(down?.cause instanceof Error, 'the driver error is kept as the cause');
    t.true(Date.now() - started < 250, `failed after ${Date.now() - started} ms`);

    await relay.listen();
    await eventually(() => client.isReady, 5_000);
    t.is(await locks.withLock('relay', 1_000, async () => 'back'), 'back');
  });

  test('redis: a Redis that stops answering fails the lock after the command timeout', async (t) => {
    const { relay, client } = await redis.relayed(t);
    const locks = new RedisLockManager(client, { keyPrefix, commandTimeoutMs: 150 });
    relay.blackhole();
    const started = Date.now();
    const error = await t.throwsAsync(
      locks.withLock('silent', 1_000, async () => 'never'),
      { instanceOf: CoreError },
    );
    const elapsed = Date.now() - started;
    t.is(error?.category, 'unavailable');
    t.true(elapsed >= 140 && elapsed < 1_000, `failed after ${elapsed} ms`);
    const closing = Date.now();
    await disconnectRedis(client, 200);
    t.true(Date.now() - closing < 1_000, 'shutdown does not wait for a silent server');
  });
}
