import test from 'ava';
import Joi from 'joi';
import type { Knex } from 'knex';
import { AppKnex } from '../src/container';
import { installAmbientContextSpy, type AmbientContextCounts } from './helpers/ambient-context-spy';
import { textAt } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp } from './helpers/test-app';

// Before the app exists: nothing it makes may escape the count.
const ambient = installAmbientContextSpy();

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(async () => t0?.close());

/** Counts the calls of knex's query runner (`client.runner` builds one per executed builder, `client.query` runs SQL). */
function knexRunnerCalls(knex: Knex): { readonly count: () => number; readonly restore: () => void } {
  const client: unknown = knex.client;
  if (typeof client !== 'object' || client === null) throw new TypeError('knex has no client');
  let calls = 0;
  const restores = (['runner', 'query'] as const).map((name) => {
    const original: unknown = Reflect.get(client, name);
    if (typeof original !== 'function') throw new TypeError(`knex's client has no ${name}`);
    Reflect.set(client, name, (...args: unknown[]): unknown => {
      calls += 1;
      const result: unknown = Reflect.apply(original, client, args);
      return result;
    });
    return () => Reflect.set(client, name, original);
  });
  return {
    count: () => calls,
    restore: () => {
      for (const restore of restores) restore();
    },
  };
}

/** Counts joi's validations, by entry: the synchronous `validate` and the asynchronous one Hapi's own validation uses. */
function joiEntries(): { readonly counts: () => { sync: number; async: number }; readonly restore: () => void } {
  // The prototype every schema type inherits its validation entries from.
  let base: unknown = Joi.object();
  while (typeof base === 'object' && base !== null && !Object.hasOwn(base, 'validateAsync')) base = Object.getPrototypeOf(base);
  if (typeof base !== 'object' || base === null) throw new TypeError('joi has no schema prototype');
  const counts = { sync: 0, async: 0 };
  const restores = (['validate', 'validateAsync'] as const).map((name) => {
    const original: unknown = Reflect.get(base, name);
    if (typeof original !== 'function') throw new TypeError(`joi's schemas have no ${name}`);
    Reflect.set(base, name, function (this: unknown, ...args: unknown[]): unknown {
      counts[name === 'validate' ? 'sync' : 'async'] += 1;
      const result: unknown = Reflect.apply(original, this, args);
      return result;
    });
    return () => Reflect.set(base, name, original);
  });
  return {
    counts: () => ({ ...counts }),
    restore: () => {
      for (const restore of restores) restore();
    },
  };
}

const snapshot = (counts: AmbientContextCounts): AmbientContextCounts => ({ ...counts });

test.serial(
  'a payment through the API uses no AsyncLocalStorage, no async hook and no knex runner: every statement is prepared and run by the driver, every request validated in one synchronous pass',
  async (t) => {
    const shop = await t0.merchant();
    const flow = paymentFlow(t0, shop.testKey);
    const knex = knexRunnerCalls(t0.app.get<Knex>(AppKnex));
    const joi = joiEntries();
    const before = snapshot(ambient);
    try {
      const key = unique();
      const created = await flow.post('/v1/payment_intents', { amount: 10_000, currency: 'THB', merchant_order_id: unique('order') }, key);
      t.is(created.statusCode, 201);
      const id = textAt(created.result, 'id');
      t.is((await flow.post('/v1/payment_intents', { amount: 10_000, currency: 'THB', merchant_order_id: 'other' }, key)).statusCode, 422);
      t.is((await flow.attempt(id)).statusCode, 201);
      t.is((await flow.simulate(id, { outcome: 'succeeded' })).statusCode, 200);
      t.is((await flow.intent(id)).status, 'succeeded');
      t.is((await flow.post('/v1/refunds', { payment_intent: id, amount: 2_500 })).statusCode, 201);
      for (const url of [
        '/v1/payment_intents?limit=10',
        `/v1/payment_intents/${id}/attempts`,
        '/v1/refunds?limit=10',
        '/v1/balance',
        '/v1/balance_transactions?limit=10',
        '/v1/events?limit=10',
      ]) {
        t.is((await t0.request({ method: 'GET', url, key: shop.testKey })).statusCode, 200, url);
      }
    } finally {
      knex.restore();
      joi.restore();
    }
    t.is(knex.count(), 0, 'no statement went through knex’s runner');
    // One synchronous pass per request, with options compiled once (apps/api/src/http/validation.ts);
    // Hapi's own validation would run joi's asynchronous entry for each part of each request.
    t.like(joi.counts(), { async: 0 }, 'no request was validated through joi’s asynchronous entry');
    t.true(joi.counts().sync > 0, 'the requests were validated');
    t.deepEqual(snapshot(ambient), before, 'no AsyncLocalStorage was entered or read, and no async hook made');
    t.deepEqual(
      { run: ambient.run, enterWith: ambient.enterWith, createHook: ambient.createHook },
      { run: 0, enterWith: 0, createHook: 0 },
      'not even at start',
    );
  },
);
