import test from 'ava';
import type { FailureCounter } from '@payments/core';

const WINDOW = { limit: 3, windowMs: 60_000 };
const T0 = new Date('2026-09-01T00:00:00Z').getTime();
const at = (ms: number): Date => new Date(T0 + ms);

/**
 * What every FailureCounter promises. Time is the caller's, so the suite moves it by hand and
 * runs the same on Redis as in process.
 */
export function failureCounterContract(name: string, create: () => FailureCounter): void {
  let counter = 0;
  const uniqueKey = (label: string): string => `${label}:${process.pid}:${(counter += 1)}`;

  test(`${name}: an unknown key has no failures and is not blocked`, async (t) => {
    t.deepEqual(await create().check(uniqueKey('fresh'), at(0), WINDOW), { failures: 0, blockedForMs: 0 });
  });

  test(`${name}: under the limit nothing is blocked; at the limit the wait runs until the oldest failure leaves the window`, async (t) => {
    const failures = create();
    const key = uniqueKey('limit');
    t.deepEqual(await failures.record(key, at(0), WINDOW), { failures: 1, blockedForMs: 0 });
    t.deepEqual(await failures.record(key, at(10_000), WINDOW), { failures: 2, blockedForMs: 0 });
    t.deepEqual(await failures.record(key, at(20_000), WINDOW), { failures: 3, blockedForMs: 40_000 });
    t.deepEqual(await failures.check(key, at(30_000), WINDOW), { failures: 3, blockedForMs: 30_000 });
    // The first failure leaves the window at 60 s: two remain, under the limit.
    t.deepEqual(await failures.check(key, at(60_000), WINDOW), { failures: 2, blockedForMs: 0 });
    t.deepEqual(await failures.check(key, at(80_001), WINDOW), { failures: 0, blockedForMs: 0 });
  });

  test(`${name}: check records nothing`, async (t) => {
    const failures = create();
    const key = uniqueKey('check');
    for (let i = 0; i < 5; i += 1) await failures.check(key, at(i), WINDOW);
    t.is((await failures.record(key, at(10), WINDOW)).failures, 1);
  });

  test(`${name}: the window slides: failures spread out never block`, async (t) => {
    const failures = create();
    const key = uniqueKey('slide');
    for (let i = 0; i < 10; i += 1) {
      const tally = await failures.record(key, at(i * 30_001), WINDOW);
      t.is(tally.blockedForMs, 0, `failure ${i}`);
    }
  });

  test(`${name}: failures at the same instant all count`, async (t) => {
    const failures = create();
    const key = uniqueKey('same-instant');
    await Promise.all([failures.record(key, at(0), WINDOW), failures.record(key, at(0), WINDOW), failures.record(key, at(0), WINDOW)]);
    t.deepEqual(await failures.check(key, at(0), WINDOW), { failures: 3, blockedForMs: 60_000 });
  });

  test(`${name}: past the limit the newest failures decide the wait`, async (t) => {
    const failures = create();
    const key = uniqueKey('over');
    for (const ms of [0, 1_000, 2_000, 50_000]) await failures.record(key, at(ms), WINDOW);
    // The last three are at 1 s, 2 s and 50 s: blocked until 1 s leaves the window at 61 s.
    t.deepEqual(await failures.check(key, at(50_000), WINDOW), { failures: 3, blockedForMs: 11_000 });
  });

  test(`${name}: clear forgets a key, and only that key`, async (t) => {
    const failures = create();
    const [a, b] = [uniqueKey('clear-a'), uniqueKey('clear-b')];
    for (let i = 0; i < 3; i += 1) {
      await failures.record(a, at(i), WINDOW);
      await failures.record(b, at(i), WINDOW);
    }
    await failures.clear(a);
    t.deepEqual(await failures.check(a, at(10), WINDOW), { failures: 0, blockedForMs: 0 });
    t.is((await failures.check(b, at(10), WINDOW)).failures, 3);
  });

  test(`${name}: reserve records a failure and names its slot while under the limit; at the limit it records nothing`, async (t) => {
    const failures = create();
    const key = uniqueKey('reserve');
    const first = await failures.reserve(key, at(0), WINDOW);
    t.truthy(first.slot);
    t.like(first, { failures: 1, blockedForMs: 0 });
    await failures.reserve(key, at(10_000), WINDOW);
    const third = await failures.reserve(key, at(20_000), WINDOW);
    t.truthy(third.slot, 'the last slot under the limit is granted');
    t.like(third, { failures: 3, blockedForMs: 40_000 });
    const refused = await failures.reserve(key, at(30_000), WINDOW);
    t.deepEqual(refused, { failures: 3, blockedForMs: 30_000 });
    // The refusal recorded nothing: the first failure leaving the window opens a slot.
    t.deepEqual(await failures.check(key, at(60_000), WINDOW), { failures: 2, blockedForMs: 0 });
    t.truthy((await failures.reserve(key, at(60_000), WINDOW)).slot);
  });

  test(`${name}: a burst of concurrent reserves gets exactly limit slots`, async (t) => {
    const failures = create();
    const key = uniqueKey('burst');
    const answers = await Promise.all(Array.from({ length: 25 }, () => failures.reserve(key, at(0), WINDOW)));
    t.is(answers.filter((answer) => answer.slot !== undefined).length, WINDOW.limit);
    t.deepEqual(await failures.check(key, at(0), WINDOW), { failures: WINDOW.limit, blockedForMs: 60_000 });
  });

  test(`${name}: release takes back its own slot only; an unknown or released slot is ignored`, async (t) => {
    const failures = create();
    const key = uniqueKey('release');
    const slots: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { slot } = await failures.reserve(key, at(i), WINDOW);
      if (slot === undefined) throw new Error('a key under its limit takes a slot');
      slots.push(slot);
    }
    await failures.release(key, slots[1]);
    t.deepEqual(await failures.check(key, at(10), WINDOW), { failures: 2, blockedForMs: 0 });
    await failures.release(key, slots[1]);
    await failures.release(key, 'no-such-slot');
    await failures.release(uniqueKey('release-unknown-key'), 'no-such-slot');
    t.is((await failures.check(key, at(10), WINDOW)).failures, 2);
    t.truthy((await failures.reserve(key, at(10), WINDOW)).slot, 'the released slot is free again');
  });

  test(`${name}: reserve and record count into one tally`, async (t) => {
    const failures = create();
    const key = uniqueKey('mixed');
    await failures.record(key, at(0), WINDOW);
    await failures.reserve(key, at(1), WINDOW);
    t.like(await failures.record(key, at(2), WINDOW), { failures: 3 });
    t.is((await failures.reserve(key, at(3), WINDOW)).slot, undefined);
  });

  test(`${name}: a nonsense window is a RangeError`, async (t) => {
    const failures = create();
    await t.throwsAsync(failures.record(uniqueKey('bad'), at(0), { limit: 0, windowMs: 1_000 }), { instanceOf: RangeError });
    await t.throwsAsync(failures.check(uniqueKey('bad'), at(0), { limit: 3, windowMs: 0 }), { instanceOf: RangeError });
  });
}
