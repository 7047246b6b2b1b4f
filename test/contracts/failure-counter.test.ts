import test from 'ava';
import { CoreError, SIGN_IN_FAILURE_WINDOW } from '@payments/core';
import { InMemoryFailureCounter } from '@payments/in-memory';
import { disconnectRedis, RedisFailureCounter } from '@payments/locks-redis';
import { failureCounterContract } from './failure-counter.contract';
import { redisSuite, redisTestUrl } from './redis-test-support';

failureCounterContract('in-memory', () => new InMemoryFailureCounter());

test('in-memory: keys whose failures all left the window are dropped', async (t) => {
  const failures = new InMemoryFailureCounter();
  const start = new Date('2026-09-01T00:00:00Z').getTime();
  for (let i = 0; i < 1_000; i += 1) await failures.record(`ip-${i}`, new Date(start), SIGN_IN_FAILURE_WINDOW);
  t.is(failures.trackedKeys, 1_000);
  await failures.record('still-active', new Date(start + SIGN_IN_FAILURE_WINDOW.windowMs + 60_000), SIGN_IN_FAILURE_WINDOW);
  t.is(failures.trackedKeys, 1);
});

if (redisTestUrl !== undefined) {
  const redis = redisSuite(redisTestUrl, 'failures');
  const { keyPrefix, connect } = redis;

  failureCounterContract('redis', () => new RedisFailureCounter(redis.shared(), { keyPrefix }));

  test('redis: processes on separate connections count into one tally', async (t) => {
    const counters = [new RedisFailureCounter(redis.shared(), { keyPrefix }), new RedisFailureCounter(await connect(), { keyPrefix })];
    const now = new Date('2026-09-01T00:00:00Z');
    await Promise.all(Array.from({ length: 10 }, (_, i) => counters[i % 2].record('shared', now, SIGN_IN_FAILURE_WINDOW)));
    for (const counter of counters)
      t.deepEqual(await counter.check('shared', now, SIGN_IN_FAILURE_WINDOW), { failures: 10, blockedForMs: SIGN_IN_FAILURE_WINDOW.windowMs });
  });

  test('redis: a burst of reserves from processes on separate connections gets at most limit slots in all', async (t) => {
    const counters = [new RedisFailureCounter(redis.shared(), { keyPrefix }), new RedisFailureCounter(await connect(), { keyPrefix })];
    const now = new Date('2026-09-01T00:00:00Z');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => counters[i % 2].reserve('shared-burst', now, SIGN_IN_FAILURE_WINDOW)));
    t.is(answers.filter((answer) => answer.slot !== undefined).length, SIGN_IN_FAILURE_WINDOW.limit);
  });

  test('redis: a key holds at most limit members and expires a window after its last failure', async (t) => {
    const counter = new RedisFailureCounter(redis.shared(), { keyPrefix });
    const window = { limit: 3, windowMs: 5_000 };
    for (let i = 0; i < 8; i += 1) await counter.record('bounded', new Date(1_000 + i), window);
    t.is(await redis.shared().zCard(`${keyPrefix}bounded`), 3);
    const ttl = await redis.shared().pTTL(`${keyPrefix}bounded`);
    t.true(ttl > 0 && ttl <= 5_000, `PTTL ${ttl}`);
  });

  test('redis: a closed client fails with CoreError unavailable, not a driver error', async (t) => {
    const client = await connect();
    await disconnectRedis(client);
    const error = await t.throwsAsync(new RedisFailureCounter(client, { keyPrefix }).record('closed', new Date(), SIGN_IN_FAILURE_WINDOW), {
      instanceOf: CoreError,
    });
    t.is(error?.category, 'unavailable');
  });
}
