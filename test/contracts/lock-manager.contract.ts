import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { CoreError, LockBusyError, type LockManager } from '@payments/core';

/**
 * What every LockManager promises, whatever holds the locks. `create` is called once per test and
 * may return the same backend each time; keys are unique per test.
 */
export function lockManagerContract(name: string, create: () => LockManager): void {
  let counter = 0;
  const uniqueKey = (label: string): string => `${label}:${process.pid}:${(counter += 1)}`;
  /** Takes `key` and holds it until `release` is called; resolves once the holder is inside. */
  const holdUntilReleased = async (locks: LockManager, key: string): Promise<{ release: () => void; holder: Promise<void> }> => {
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const holderEntered = new Promise<void>((resolve) => (entered = resolve));
    const holder = locks.withLock(key, 10_000, async () => {
      entered();
      await holding;
    });
    await holderEntered;
    return { release, holder };
  };

  test(`${name}: concurrent holders of one key never overlap`, async (t) => {
    const locks = create();
    const key = uniqueKey('exclusive');
    let active = 0;
    let maxActive = 0;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        locks.withLock(key, 2_000, async () => {
          active += 1;
          maxActive = Math.max(maxActive, active);
          await sleep(5);
          order.push(i);
          active -= 1;
          return i * 10;
        }),
      ),
    );
    t.is(maxActive, 1);
    t.deepEqual(results, [0, 10, 20, 30, 40, 50, 60, 70], 'each caller gets its own fn result');
    t.is(order.length, 8);
  });

  test(`${name}: different keys are held at the same time`, async (t) => {
    const locks = create();
    let enterA!: () => void;
    let enterB!: () => void;
    const aEntered = new Promise<void>((resolve) => (enterA = resolve));
    const bEntered = new Promise<void>((resolve) => (enterB = resolve));
    const meet = (other: Promise<void>): Promise<string> => Promise.race([other.then(() => 'met'), sleep(1_000).then(() => 'alone')]);
    const [a, b] = await Promise.all([
      locks.withLock(uniqueKey('parallel-a'), 2_000, async () => {
        enterA();
        return meet(bEntered);
      }),
      locks.withLock(uniqueKey('parallel-b'), 2_000, async () => {
        enterB();
        return meet(aEntered);
      }),
    ]);
    t.deepEqual([a, b], ['met', 'met']);
  });

  test(`${name}: a waiter gets the lock as soon as the holder finishes, not when its TTL ends`, async (t) => {
    const locks = create();
    const key = uniqueKey('handoff');
    let holderDone = 0;
    const holder = locks.withLock(key, 10_000, async () => {
      await sleep(50);
      holderDone = Date.now();
    });
    await sleep(10);
    const acquiredAt = await locks.withLock(key, 10_000, async () => Date.now(), { waitMs: 3_000 });
    await holder;
    t.true(acquiredAt >= holderDone, 'the waiter ran after the holder');
    t.true(acquiredAt - holderDone < 500, `the waiter ran ${acquiredAt - holderDone} ms after the release`);
  });

  test(`${name}: the lock is released when fn throws, and the error reaches the caller`, async (t) => {
    const locks = create();
    const key = uniqueKey('throws');
    const boom = new Error('boom');
    const thrown = await t.throwsAsync(
      locks.withLock(key, 10_000, async () => {
        throw boom;
      }),
    );
    t.is(thrown, boom);
    // waitMs 0: a single attempt, so this passes only if the lock is already free.
    t.is(await locks.withLock(key, 10_000, async () => 'free', { waitMs: 0 }), 'free');
  });

  test(`${name}: waiting longer than waitMs fails with CoreError unavailable and never runs fn`, async (t) => {
    const locks = create();
    const key = uniqueKey('busy');
    const { release, holder } = await holdUntilReleased(locks, key);
    let ran = false;
    const started = Date.now();
    const error = await t.throwsAsync(
      locks.withLock(
        key,
        10_000,
        async () => {
          ran = true;
        },
        { waitMs: 60 },
      ),
      { instanceOf: LockBusyError },
    );
    const waited = Date.now() - started;
    release();
    await holder;
    t.is(error?.code, 'api_error');
    t.is(error?.category, 'unavailable');
    t.is(error?.retryAfterSeconds, 1);
    t.false(ran);
    t.true(waited >= 50 && waited < 1_000, `gave up after ${waited} ms`);
  });

  test(`${name}: waitMs 0 refuses at once while the key is held`, async (t) => {
    const locks = create();
    const key = uniqueKey('no-wait');
    const { release, holder } = await holdUntilReleased(locks, key);
    const error = await t.throwsAsync(locks.withLock(key, 10_000, async () => 'never', { waitMs: 0 }));
    release();
    await holder;
    t.true(error instanceof CoreError && error.category === 'unavailable');
  });

  test(`${name}: a holder that outlives its TTL loses the lock to a waiter, and its late release frees nothing`, async (t) => {
    const locks = create();
    const key = uniqueKey('ttl');
    let holderFinished = false;
    let entered!: () => void;
    const holderEntered = new Promise<void>((resolve) => (entered = resolve));
    const started = Date.now();
    const slowHolder = locks.withLock(key, 100, async () => {
      entered();
      await sleep(400);
      holderFinished = true;
    });
    await holderEntered;

    let releaseWaiter!: () => void;
    const waiterHolding = new Promise<void>((resolve) => (releaseWaiter = resolve));
    let waiterIn!: (at: number) => void;
    const waiterEntered = new Promise<number>((resolve) => (waiterIn = resolve));
    const waiter = locks.withLock(
      key,
      10_000,
      async () => {
        waiterIn(Date.now() - started);
        t.false(holderFinished, 'the waiter got in while the expired holder was still running');
        await waiterHolding;
      },
      { waitMs: 2_000 },
    );
    const waiterAt = await waiterEntered;
    t.true(waiterAt >= 90, `the waiter got in after ${waiterAt} ms, before the TTL`);

    await slowHolder;
    // The expired holder has run its finally; the waiter must still hold the key.
    const error = await t.throwsAsync(locks.withLock(key, 10_000, async () => 'stolen', { waitMs: 0 }));
    t.true(error instanceof CoreError && error.category === 'unavailable');
    releaseWaiter();
    await waiter;
    t.is(await locks.withLock(key, 10_000, async () => 'free again', { waitMs: 0 }), 'free again');
  });
}
