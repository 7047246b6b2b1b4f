import { lookup } from 'node:dns/promises';
import test from 'ava';
import { CoreError } from '@payments/core';
import { BoundedWorkQueue } from '../src/bounded-work-queue';
import { libuvThreadPoolSize, ScryptPasswordHasher } from '../src/scrypt-password-hasher';

/** A task the test finishes by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at most `concurrency` tasks run; the others wait their turn in order; past maxWaiting a task is 503 at once', async (t) => {
  const queue = new BoundedWorkQueue({ concurrency: 2, maxWaiting: 3, busyMessage: 'busy' });
  const gates = Array.from({ length: 5 }, gate);
  const started: number[] = [];
  const results = gates.map((g, i) =>
    queue.run(async () => {
      started.push(i);
      await g.promise;
      return i;
    }),
  );
  await tick();
  t.deepEqual(started, [0, 1]);
  t.deepEqual(queue.load, { running: 2, waiting: 3 });
  const refused = await t.throwsAsync(
    queue.run(async () => 'never'),
    { instanceOf: CoreError },
  );
  t.like(refused, { code: 'api_error', category: 'unavailable', retryAfterSeconds: 1, message: 'busy' });

  gates[1].open();
  await tick();
  t.deepEqual(started, [0, 1, 2]);
  gates[0].open();
  await tick();
  t.deepEqual(started, [0, 1, 2, 3]);
  for (const g of gates) g.open();
  t.deepEqual(await Promise.all(results), [0, 1, 2, 3, 4]);
  t.deepEqual(queue.load, { running: 0, waiting: 0 });
});

test('a failing task frees its turn', async (t) => {
  const queue = new BoundedWorkQueue({ concurrency: 1, maxWaiting: 1, busyMessage: 'busy' });
  const failing = queue.run(async () => {
    await tick();
    throw new Error('boom');
  });
  const next = queue.run(async () => 'ran');
  await t.throwsAsync(failing, { message: 'boom' });
  t.is(await next, 'ran');
  t.deepEqual(queue.load, { running: 0, waiting: 0 });
});

test('nonsense limits are a RangeError', (t) => {
  t.throws(() => new BoundedWorkQueue({ concurrency: 0, maxWaiting: 1, busyMessage: 'x' }), { instanceOf: RangeError });
  t.throws(() => new BoundedWorkQueue({ concurrency: 1, maxWaiting: -1, busyMessage: 'x' }), { instanceOf: RangeError });
});

test('the thread pool size is read from UV_THREADPOOL_SIZE, 4 without it', (t) => {
  t.is(libuvThreadPoolSize({}), 4);
  t.is(libuvThreadPoolSize({ UV_THREADPOOL_SIZE: '8' }), 8);
  t.is(libuvThreadPoolSize({ UV_THREADPOOL_SIZE: 'lots' }), 4);
});

test('a flood of password hashes leaves libuv threads free: a DNS lookup does not wait behind them', async (t) => {
  // Costly enough that one hash takes tens of milliseconds; twelve of them would hold all four
  // threads for several hash-lengths if nothing bounded them.
  const hasher = new ScryptPasswordHasher({ N: 2 ** 14, r: 8, p: 1 }, { concurrency: 2, maxWaiting: 32 });
  const started = performance.now();
  await hasher.hash('one alone, to time it');
  const oneHash = performance.now() - started;

  const flood = Array.from({ length: 12 }, (_, i) => hasher.hash(`password number ${i}`));
  await tick();
  t.deepEqual(hasher.load, { running: 2, waiting: 10 });
  const lookupStarted = performance.now();
  await lookup('localhost');
  const lookupTook = performance.now() - lookupStarted;
  const pendingAfterLookup = hasher.load.running + hasher.load.waiting;
  await Promise.all(flood);
  t.log(`one hash ${oneHash.toFixed(1)} ms, lookup during the flood ${lookupTook.toFixed(1)} ms`);
  t.true(pendingAfterLookup >= 8, `the lookup finished while ${pendingAfterLookup} hashes were still queued or running`);
  t.true(lookupTook < oneHash, `lookup ${lookupTook.toFixed(1)} ms, one hash ${oneHash.toFixed(1)} ms`);
});

test('past the waiting room the hasher refuses with 503 instead of queueing without end', async (t) => {
  const hasher = new ScryptPasswordHasher({ N: 2 ** 12, r: 8, p: 1 }, { concurrency: 1, maxWaiting: 2 });
  const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => hasher.hash(`pw ${i}`)));
  t.is(results.filter((result) => result.status === 'fulfilled').length, 3);
  for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
    t.like(result.reason, { code: 'api_error', category: 'unavailable' });
});
