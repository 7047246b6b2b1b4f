import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { RateLimitDecision, RateLimiter } from '@payments/core';

/** A limiter under test and how time passes for it. */
export interface TimedLimiter {
  readonly limiter: RateLimiter;
  /** Lets `ms` pass: real time for Redis (its clock), a fake clock's step for in-process adapters. */
  readonly wait: (ms: number) => Promise<void>;
}

/** Real time, for adapters whose clock is not ours to move. */
export const realTime = (limiter: RateLimiter): TimedLimiter => ({ limiter, wait: (ms) => sleep(ms) });

/**
 * What every RateLimiter promises. On real time (Redis) rates are low (2 to 5 a second) so that a
 * burst finishes long before a token refills, even on a slow machine; an in-process adapter runs
 * the same rules on a clock of its own, which a busy machine cannot move between two calls.
 */
export function rateLimiterContract(name: string, createTimed: () => TimedLimiter): void {
  let counter = 0;
  const uniqueKey = (label: string): string => `${label}:${process.pid}:${(counter += 1)}`;
  const burst = (limiter: RateLimiter, key: string, count: number, perSecond: number): Promise<RateLimitDecision[]> =>
    Promise.all(Array.from({ length: count }, () => limiter.consume(key, perSecond)));
  const allowedIn = (decisions: RateLimitDecision[]): number => decisions.filter((d) => d.allowed).length;

  test(`${name}: allows perSecond requests in a burst, then refuses with a retry delay`, async (t) => {
    const { limiter } = createTimed();
    const key = uniqueKey('burst');
    // 2 a second: a token takes 500 ms to refill, room for a busy machine between the calls.
    const decisions = await burst(limiter, key, 2, 2);
    t.is(allowedIn(decisions), 2);
    t.true(decisions.every((d) => d.retryAfterMs === 0));
    const refused = await limiter.consume(key, 2);
    t.false(refused.allowed);
    // Part of the token may already have refilled.
    t.true(refused.retryAfterMs > 0 && refused.retryAfterMs <= 500, `retryAfterMs ${refused.retryAfterMs}`);
  });

  test(`${name}: allows one more request once retryAfterMs has passed`, async (t) => {
    const { limiter, wait } = createTimed();
    const key = uniqueKey('refill');
    await burst(limiter, key, 2, 2);
    const refused = await limiter.consume(key, 2);
    t.false(refused.allowed);
    await wait(refused.retryAfterMs + 15);
    t.true((await limiter.consume(key, 2)).allowed);
    t.false((await limiter.consume(key, 2)).allowed, 'only the one refilled token');
  });

  test(`${name}: refused requests take no token, so hammering does not push the wait back`, async (t) => {
    const { limiter, wait } = createTimed();
    const key = uniqueKey('hammer');
    await burst(limiter, key, 5, 5);
    const first = await limiter.consume(key, 5);
    const hammered = await burst(limiter, key, 20, 5);
    t.is(allowedIn(hammered), 0);
    await wait(first.retryAfterMs + 15);
    t.true((await limiter.consume(key, 5)).allowed);
  });

  test(`${name}: each key has its own bucket`, async (t) => {
    const { limiter } = createTimed();
    const a = uniqueKey('key-a');
    const b = uniqueKey('key-b');
    t.is(allowedIn(await burst(limiter, a, 6, 5)), 5);
    t.is(allowedIn(await burst(limiter, b, 6, 5)), 5);
  });

  test(`${name}: an idle bucket holds one second of burst, no more`, async (t) => {
    const { limiter, wait } = createTimed();
    const key = uniqueKey('capacity');
    await burst(limiter, key, 5, 5);
    await wait(1_300);
    t.is(allowedIn(await burst(limiter, key, 8, 5)), 5);
  });

  test(`${name}: a fractional rate still allows one request, then asks for the whole interval`, async (t) => {
    const { limiter } = createTimed();
    const key = uniqueKey('slow');
    t.true((await limiter.consume(key, 0.5)).allowed);
    const refused = await limiter.consume(key, 0.5);
    t.false(refused.allowed);
    // Most of the 2 s interval: a loaded machine may take a moment between the two calls.
    t.true(refused.retryAfterMs > 1_000 && refused.retryAfterMs <= 2_000, `retryAfterMs ${refused.retryAfterMs}`);
  });
}
