import test from 'ava';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { apiObjectAt, jsonAt, listAt, textAt } from './helpers/json';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(async () => t0?.close());

const countByOrderId = async (key: string, orderId: string): Promise<number> =>
  listAt((await t0.request({ method: 'GET', url: `/v1/payment_intents?merchant_order_id=${orderId}`, key })).result, 'data').length;

test('20 simultaneous identical creates with one Idempotency-Key make exactly one intent', async (t) => {
  const shop = await t0.merchant();
  const key = unique();
  const body = createBody();
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body })),
  );
  const created = answers.filter((res) => res.statusCode === 201);
  const inFlight = answers.filter((res) => res.statusCode === 409);
  t.is(created.length + inFlight.length, 20, `unexpected statuses: ${answers.map((res) => res.statusCode).join(',')}`);
  t.true(created.length >= 1);
  t.is(new Set(created.map((res) => textAt(res.result, 'id'))).size, 1);
  for (const res of inFlight) t.like(res.result, { error: { code: 'idempotency_key_in_use' } });
  t.is(await countByOrderId(shop.testKey, textAt(body, 'merchant_order_id')), 1);
  // Once the first finished, the key replays it.
  const later = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
  t.is(later.statusCode, 201);
  t.is(later.payload, created[0].payload);
});

test('20 simultaneous creates with different keys and one merchant_order_id make one 201 and 19 409s', async (t) => {
  const shop = await t0.merchant();
  const orderId = unique('order');
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      t0.request({
        method: 'POST',
        url: '/v1/payment_intents',
        key: shop.testKey,
        idempotencyKey: unique(),
        payload: createBody({ merchant_order_id: orderId }),
      }),
    ),
  );
  t.is(answers.filter((res) => res.statusCode === 201).length, 1);
  const conflicts = answers.filter((res) => res.statusCode === 409);
  t.is(conflicts.length, 19, `unexpected statuses: ${answers.map((res) => res.statusCode).join(',')}`);
  for (const res of conflicts) t.like(res.result, { error: { code: 'merchant_order_id_taken' } });
  t.is(await countByOrderId(shop.testKey, orderId), 1);
});

test('simultaneous cancels of one intent: one succeeds, one event', async (t) => {
  const shop = await t0.merchant();
  const intent = apiObjectAt(
    (await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique(), payload: createBody() })).result,
  );
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      t0.request({ method: 'POST', url: `/v1/payment_intents/${intent.id}/cancel`, key: shop.testKey, idempotencyKey: unique() }),
    ),
  );
  t.is(answers.filter((res) => res.statusCode === 200).length, 1);
  for (const res of answers.filter((answer) => answer.statusCode !== 200)) {
    t.is(res.statusCode, 409);
    // Each later cancel waited for the first to commit and saw the intent canceled.
    t.like(res.result, { error: { code: 'invalid_state_transition' } });
  }
  const events = listAt((await t0.request({ method: 'GET', url: '/v1/events', key: shop.testKey })).result, 'data');
  t.is(events.filter((event) => jsonAt(event, 'data', 'id') === intent.id).length, 1);
});
