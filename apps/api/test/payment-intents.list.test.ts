import test from 'ava';
import { apiObjectsAt, jsonAt, listAt, objectAt, textAt, type JsonObject } from './helpers/json';
import { createBody, unique, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

let t0: TestApp;
let shop: TestMerchant;
const created: string[] = [];

withAppAndMerchant({}, async (started) => {
  ({ t0, shop } = started);
  for (let i = 0; i < 7; i += 1) {
    const res = await t0.request({
      method: 'POST',
      url: '/v1/payment_intents',
      key: shop.testKey,
      idempotencyKey: unique(),
      payload: createBody({ merchant_order_id: `list-${i}` }),
    });
    created.push(textAt(res.result, 'id'));
  }
});

const get = async (query: string): Promise<{ status: number; body: JsonObject }> => {
  const res = await t0.request({ method: 'GET', url: `/v1/payment_intents${query}`, key: shop.testKey });
  return { status: res.statusCode, body: objectAt(res.result) };
};
/** The ids of a list answer's intents, in its order. */
const idsOf = (body: JsonObject): string[] => apiObjectsAt(body, 'data').map((intent) => intent.id);

test('lists newest first with the list envelope and a default page of 20', async (t) => {
  const { status, body } = await get('');
  t.is(status, 200);
  t.is(body.object, 'list');
  t.false(body.has_more);
  t.deepEqual(idsOf(body), [...created].reverse());
});

test('pages with limit and starting_after until has_more is false, each intent once', async (t) => {
  const seen: string[] = [];
  let cursor = '';
  for (;;) {
    const { body } = await get(`?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
    const ids = idsOf(body);
    seen.push(...ids);
    if (!body.has_more) break;
    cursor = ids[ids.length - 1];
  }
  t.deepEqual(seen, [...created].reverse());
});

test('filters by merchant_order_id and status', async (t) => {
  const byOrder = await get('?merchant_order_id=list-3');
  t.deepEqual(idsOf(byOrder.body), [created[3]]);
  await t0.request({ method: 'POST', url: `/v1/payment_intents/${created[1]}/cancel`, key: shop.testKey, idempotencyKey: unique() });
  const canceled = await get('?status=canceled');
  t.deepEqual(idsOf(canceled.body), [created[1]]);
});

test('created[gte] keeps intents created at or after the instant', async (t) => {
  const future = await get(`?created[gte]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
  t.is(future.status, 200);
  t.is(listAt(future.body, 'data').length, 0);
  const past = await get(`?created[gte]=${encodeURIComponent('2020-01-01T00:00:00Z')}`);
  t.is(listAt(past.body, 'data').length, created.length);
});

for (const [query, param] of [
  ['?limit=0', 'limit'],
  ['?limit=101', 'limit'],
  ['?limit=ten', 'limit'],
  ['?status=paid', 'status'],
  ['?starting_after=evt_ABC', 'starting_after'],
  ['?starting_after=pi_doesnotexist', 'starting_after'],
  ['?created[gte]=yesterday', 'created[gte]'],
  ['?colour=red', 'colour'],
] as const) {
  test(`list refuses ${query} with 400 naming ${param}`, async (t) => {
    const { status, body } = await get(query);
    t.is(status, 400);
    t.is(jsonAt(body, 'error', 'code'), 'invalid_parameter');
    t.is(jsonAt(body, 'error', 'param'), param);
  });
}

test('a path id of the wrong shape is 400, an unknown one 404', async (t) => {
  const malformed = await t0.request({ method: 'GET', url: '/v1/payment_intents/order-1', key: shop.testKey });
  t.is(malformed.statusCode, 400);
  t.like(malformed.result, { error: { code: 'invalid_parameter', param: 'id' } });
  const unknown = await t0.request({ method: 'GET', url: '/v1/payment_intents/pi_unknown', key: shop.testKey });
  t.is(unknown.statusCode, 404);
  t.like(unknown.result, { error: { code: 'resource_not_found' } });
});
