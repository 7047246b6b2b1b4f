import test from 'ava';
import { ExpirePaymentIntents } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { apiObjectAt, apiObjectsAt, jsonAt, objectAt, textAt, type ApiObject, type JsonObject } from './helpers/json';
import { createBody, unique, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';

let t0: TestApp;
let shop: TestMerchant;
const clock = new FakeClock(new Date());

withAppAndMerchant({ clock }, (started) => ({ t0, shop } = started));

const createIntent = async (overrides: Record<string, unknown> = {}, key = shop.testKey): Promise<ApiObject> =>
  apiObjectAt((await t0.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: unique(), payload: createBody(overrides) })).result);
const cancel = (id: string, idempotencyKey = unique(), key = shop.testKey) =>
  t0.request({ method: 'POST', url: `/v1/payment_intents/${id}/cancel`, key, idempotencyKey });
/** A page of events: the events, and whether more follow. */
const events = async (key = shop.testKey, query = ''): Promise<{ data: ApiObject[]; has_more: unknown }> => {
  const page = (await t0.request({ method: 'GET', url: `/v1/events${query}`, key })).result;
  return { data: apiObjectsAt(page, 'data'), has_more: jsonAt(page, 'has_more') };
};
/** The id of what an event is about. */
const subjectOf = (event: ApiObject): unknown => jsonAt(event, 'data', 'id');

test('cancel moves a created intent to canceled and writes payment_intent.canceled', async (t) => {
  const intent = await createIntent();
  const res = await cancel(intent.id);
  t.is(res.statusCode, 200);
  t.like(res.result, { id: intent.id, status: 'canceled' });
  const event = (await events()).data.find((e) => subjectOf(e) === intent.id);
  t.truthy(event);
  t.regex(event!.id, /^evt_[A-Z2-7]+$/);
  t.deepEqual(event!.data, { id: intent.id, object: 'payment_intent', status: 'canceled', merchant: shop.id, mode: 'test' });
  t.is(event!.type, 'payment_intent.canceled');
  t.false(event!.livemode);
  t.regex(textAt(event, 'created'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('creating an intent writes no event', async (t) => {
  const intent = await createIntent();
  t.false((await events()).data.some((e) => subjectOf(e) === intent.id));
});

test('a second cancel is 409 invalid_state_transition and writes no second event', async (t) => {
  const intent = await createIntent();
  await cancel(intent.id);
  const again = await cancel(intent.id);
  t.is(again.statusCode, 409);
  t.like(again.result, { error: { code: 'invalid_state_transition' } });
  t.is((await events()).data.filter((e) => subjectOf(e) === intent.id).length, 1);
});

test('a cancel retried with its key replays, and the key on another intent is 422', async (t) => {
  const a = await createIntent();
  const b = await createIntent();
  const key = unique();
  const first = await cancel(a.id, key);
  const replay = await cancel(a.id, key);
  t.is(replay.statusCode, 200);
  t.is(replay.payload, first.payload);
  const other = await cancel(b.id, key);
  t.is(other.statusCode, 422);
  t.like(other.result, { error: { code: 'idempotency_key_reused' } });
});

test("another merchant's intent cannot be canceled: 404", async (t) => {
  const other = await t0.merchant();
  const intent = await createIntent();
  const res = await cancel(intent.id, unique(), other.testKey);
  t.is(res.statusCode, 404);
  const still = await t0.request({ method: 'GET', url: `/v1/payment_intents/${intent.id}`, key: shop.testKey });
  t.like(still.result, { status: 'created' });
});

test('a body on cancel is refused with 400', async (t) => {
  const intent = await createIntent();
  const res = await t0.request({
    method: 'POST',
    url: `/v1/payment_intents/${intent.id}/cancel`,
    key: shop.testKey,
    idempotencyKey: unique(),
    payload: { reason: 'x' },
  });
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'invalid_parameter', param: 'reason' } });
});

test.serial('the expiry timer expires intents past expires_at, once, with payment_intent.expired', async (t) => {
  const merchant = await t0.merchant();
  const soon = await createIntent({ expires_in: 60 }, merchant.testKey);
  const later = await createIntent({ expires_in: 7200 }, merchant.testKey);
  const canceled = await createIntent({ expires_in: 60 }, merchant.testKey);
  await cancel(canceled.id, unique(), merchant.testKey);
  clock.advance(61_000);
  const expire = () => runJob(t0.app, ExpirePaymentIntents, 1000);
  t.true((await expire()).progressed >= 1);
  await expire();
  const read = async (id: string): Promise<JsonObject> =>
    objectAt((await t0.request({ method: 'GET', url: `/v1/payment_intents/${id}`, key: merchant.testKey })).result);
  t.is((await read(soon.id)).status, 'expired');
  t.is((await read(later.id)).status, 'created');
  t.is((await read(canceled.id)).status, 'canceled');
  const expiredEvents = (await events(merchant.testKey)).data.filter((e) => e.type === 'payment_intent.expired');
  t.deepEqual(expiredEvents.map(subjectOf), [soon.id]);
  const cancelExpired = await cancel(soon.id, unique(), merchant.testKey);
  t.is(cancelExpired.statusCode, 409);
});

test('events page newest first with starting_after', async (t) => {
  const merchant = await t0.merchant();
  for (let i = 0; i < 5; i += 1) await cancel((await createIntent({}, merchant.testKey)).id, unique(), merchant.testKey);
  const all = await events(merchant.testKey);
  t.is(all.data.length, 5);
  const firstPage = await events(merchant.testKey, '?limit=2');
  t.true(firstPage.has_more);
  t.deepEqual(
    firstPage.data.map((e) => e.id),
    all.data.slice(0, 2).map((e) => e.id),
  );
  const next = await events(merchant.testKey, `?limit=2&starting_after=${firstPage.data[1].id}`);
  t.deepEqual(
    next.data.map((e) => e.id),
    all.data.slice(2, 4).map((e) => e.id),
  );
  const bad = await t0.request({ method: 'GET', url: '/v1/events?starting_after=pi_123', key: merchant.testKey });
  t.is(bad.statusCode, 400);
  t.like(bad.result, { error: { param: 'starting_after' } });
});
