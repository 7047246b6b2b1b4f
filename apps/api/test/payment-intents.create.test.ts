import test from 'ava';
import { createBody, unique, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { apiObjectAt, apiObjectsAt, jsonAt, objectAt, textAt } from './helpers/json';

let t0: TestApp;
let shop: TestMerchant;

withAppAndMerchant({}, (started) => ({ t0, shop } = started));

const create = (payload: unknown, idempotencyKey: string | null = unique(), key = shop.testKey) =>
  t0.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: idempotencyKey ?? undefined, payload });

test('create answers 201 with the intent and its checkout_url', async (t) => {
  const body = createBody({ metadata: { cart: '42' }, payment_method: 'promptpay', return_url: 'https://shop.example.com/done' });
  const res = await create(body);
  t.is(res.statusCode, 201);
  const intent = objectAt(res.result);
  t.regex(textAt(intent, 'id'), /^pi_[0-9A-Za-z]+$/);
  t.like(intent, {
    object: 'payment_intent',
    mode: 'test',
    amount: 10000,
    currency: 'THB',
    merchant_order_id: body.merchant_order_id,
    status: 'created',
    payment_method: 'promptpay',
    metadata: { cart: '42' },
  });
  t.regex(textAt(intent, 'checkout_url'), /^https:\/\/pay\.example\.test\/c\/[A-Za-z0-9_-]{43}$/);
  t.regex(textAt(intent, 'created'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(Date.parse(textAt(intent, 'expires_at')) - Date.parse(textAt(intent, 'created')), 3600_000);
  t.regex(String(res.headers['request-id']), /^req_/);
  t.is(res.headers['api-version'], '2026-09-01');
});

test('checkout_url is on the create answer only', async (t) => {
  const created = apiObjectAt((await create(createBody())).result);
  const got = await t0.request({ method: 'GET', url: `/v1/payment_intents/${created.id}`, key: shop.testKey });
  t.is(got.statusCode, 200);
  t.false('checkout_url' in objectAt(got.result));
  const listed = await t0.request({ method: 'GET', url: '/v1/payment_intents?limit=5', key: shop.testKey });
  t.true(apiObjectsAt(listed.result, 'data').every((intent) => !('checkout_url' in intent)));
});

test('the same key and body replays the first answer byte for byte', async (t) => {
  const key = unique();
  const body = createBody();
  const first = await create(body, key);
  const second = await create(body, key);
  t.is(second.statusCode, 201);
  t.is(second.payload, first.payload);
  t.is(second.headers['idempotent-replayed'], 'true');
  t.is(first.headers['idempotent-replayed'], undefined);
  const listed = await t0.request({ method: 'GET', url: `/v1/payment_intents?merchant_order_id=${textAt(body, 'merchant_order_id')}`, key: shop.testKey });
  t.is(apiObjectsAt(listed.result, 'data').length, 1);
});

test('the same key with another body is 422 idempotency_key_reused and creates nothing', async (t) => {
  const key = unique();
  await create(createBody(), key);
  const other = createBody();
  const res = await create(other, key);
  t.is(res.statusCode, 422);
  t.like(res.result, { error: { code: 'idempotency_key_reused', param: 'Idempotency-Key' } });
  const listed = await t0.request({ method: 'GET', url: `/v1/payment_intents?merchant_order_id=${textAt(other, 'merchant_order_id')}`, key: shop.testKey });
  t.is(apiObjectsAt(listed.result, 'data').length, 0);
});

test('a POST without Idempotency-Key is 400 idempotency_key_required', async (t) => {
  const res = await create(createBody(), null);
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'idempotency_key_required', param: 'Idempotency-Key' } });
});

test('an Idempotency-Key over 255 characters is refused', async (t) => {
  const res = await create(createBody(), 'k'.repeat(256));
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'invalid_parameter', param: 'Idempotency-Key' } });
});

test('a used merchant_order_id is 409 merchant_order_id_taken, and that answer is remembered under its key', async (t) => {
  const body = createBody();
  t.is((await create(body)).statusCode, 201);
  const key = unique();
  const taken = await create({ ...body, amount: 5 }, key);
  t.is(taken.statusCode, 409);
  t.like(taken.result, { error: { code: 'merchant_order_id_taken', param: 'merchant_order_id' } });
  const replay = await create({ ...body, amount: 5 }, key);
  t.is(replay.statusCode, 409);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(replay.payload, taken.payload);
});

test('a validation failure stores nothing: the corrected request runs under the same key', async (t) => {
  const key = unique();
  const bad = await create(createBody({ amount: 0 }), key);
  t.is(bad.statusCode, 400);
  const good = await create(createBody(), key);
  t.is(good.statusCode, 201);
});

test('merchant_order_id is per mode: the same id in test and live is fine', async (t) => {
  const merchant = await t0.merchant();
  const live = await merchant.liveKey();
  const body = createBody();
  t.is((await create(body, unique(), merchant.testKey)).statusCode, 201);
  const inLive = await create(body, unique(), live);
  t.is(inLive.statusCode, 201);
  t.is(jsonAt(inLive.result, 'mode'), 'live');
});

test('test and live data never mix, and another merchant sees 404', async (t) => {
  const merchant = await t0.merchant();
  const live = await merchant.liveKey();
  const testIntent = apiObjectAt((await create(createBody(), unique(), merchant.testKey)).result);
  const liveRead = await t0.request({ method: 'GET', url: `/v1/payment_intents/${testIntent.id}`, key: live });
  t.is(liveRead.statusCode, 404);
  t.like(liveRead.result, { error: { code: 'resource_not_found' } });
  const otherRead = await t0.request({ method: 'GET', url: `/v1/payment_intents/${testIntent.id}`, key: shop.testKey });
  t.is(otherRead.statusCode, 404);
  const liveList = await t0.request({ method: 'GET', url: '/v1/payment_intents', key: live });
  t.false(apiObjectsAt(liveList.result, 'data').some((intent) => intent.id === testIntent.id));
});

const invalid: Array<[string, Record<string, unknown>, string, string]> = [
  ['amount 0', { amount: 0 }, 'invalid_parameter', 'amount'],
  ['a fractional amount', { amount: 10.5 }, 'invalid_parameter', 'amount'],
  ['an amount as a string', { amount: '100' }, 'invalid_parameter', 'amount'],
  ['an amount past 2^53', { amount: 2 ** 53 }, 'invalid_parameter', 'amount'],
  ['a lower-case currency', { currency: 'thb' }, 'invalid_parameter', 'currency'],
  ['a currency that is not ISO 4217', { currency: 'XYZ' }, 'invalid_parameter', 'currency'],
  ['a currency no method collects', { currency: 'EUR' }, 'invalid_parameter', 'currency'],
  ['a missing merchant_order_id', { merchant_order_id: undefined }, 'invalid_parameter', 'merchant_order_id'],
  ['a 256-character merchant_order_id', { merchant_order_id: 'x'.repeat(256) }, 'invalid_parameter', 'merchant_order_id'],
  ['an unknown payment_method', { payment_method: 'cash' }, 'invalid_parameter', 'payment_method'],
  ['a method of another currency', { payment_method: 'paynow' }, 'invalid_parameter', 'payment_method'],
  ['an unknown channel', { channel_preference: 'carrier-pigeon' }, 'invalid_parameter', 'channel_preference'],
  ['expires_in under a minute', { expires_in: 10 }, 'invalid_parameter', 'expires_in'],
  ['a number in metadata', { metadata: { a: 1 } }, 'invalid_parameter', 'metadata.a'],
  ['51 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'invalid_parameter', 'metadata'],
  ['an unknown field', { colour: 'red' }, 'invalid_parameter', 'colour'],
  ['a field named like an Object method', { toString: 'x' }, 'invalid_parameter', 'toString'],
  ['a field named constructor', { constructor: 'x' }, 'invalid_parameter', 'constructor'],
  ['an http return_url', { return_url: 'http://shop.example.com/done' }, 'invalid_return_url', 'return_url'],
  ['an IPv4 return_url', { return_url: 'https://203.0.113.7/done' }, 'invalid_return_url', 'return_url'],
  ['an IPv6 return_url', { return_url: 'https://[2001:db8::1]/done' }, 'invalid_return_url', 'return_url'],
  ['a hex IPv4 return_url', { return_url: 'https://0x7f000001/done' }, 'invalid_return_url', 'return_url'],
  ['a localhost return_url', { return_url: 'https://localhost/done' }, 'invalid_return_url', 'return_url'],
  ['a *.localhost return_url', { return_url: 'https://shop.localhost./done' }, 'invalid_return_url', 'return_url'],
  ['a return_url with user info', { return_url: 'https://user:pw@shop.example.com/' }, 'invalid_return_url', 'return_url'],
  ['a relative return_url', { return_url: '/done' }, 'invalid_return_url', 'return_url'],
  ['a return_url over 2048 characters', { return_url: `https://shop.example.com/${'a'.repeat(2030)}` }, 'invalid_return_url', 'return_url'],
  ['a return_url that is not a string', { return_url: 42 }, 'invalid_return_url', 'return_url'],
];

for (const [name, change, code, param] of invalid) {
  test(`create refuses ${name} with 400 ${code} naming ${param}, creating nothing`, async (t) => {
    const body = createBody(change);
    const res = await create(body);
    t.is(res.statusCode, 400);
    t.like(res.result, { error: { code, param } });
    t.regex(textAt(res.result, 'error', 'request_id'), /^req_/);
    if (typeof body.merchant_order_id === 'string' && body.merchant_order_id.length <= 255) {
      const listed = await t0.request({
        method: 'GET',
        url: `/v1/payment_intents?merchant_order_id=${encodeURIComponent(body.merchant_order_id)}`,
        key: shop.testKey,
      });
      t.is(apiObjectsAt(listed.result, 'data').length, 0);
    }
  });
}

test('a body over 64 KiB is 413 request_too_large in the envelope', async (t) => {
  const res = await create(createBody({ description: 'x'.repeat(70 * 1024) }));
  t.is(res.statusCode, 413);
  t.like(res.result, { error: { code: 'request_too_large' } });
});

test('a body that is not JSON is 415, and broken JSON is 400, both in the envelope', async (t) => {
  const text = await t0.request({
    method: 'POST',
    url: '/v1/payment_intents',
    key: shop.testKey,
    idempotencyKey: unique(),
    payload: 'amount=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(text.statusCode, 415);
  t.like(text.result, { error: { code: 'unsupported_media_type' } });
  const broken = await t0.request({
    method: 'POST',
    url: '/v1/payment_intents',
    key: shop.testKey,
    idempotencyKey: unique(),
    payload: '{"amount":',
    headers: { 'content-type': 'application/json' },
  });
  t.is(broken.statusCode, 400);
  t.like(broken.result, { error: { code: 'invalid_json' } });
});

test('an unknown route is 404 in the envelope', async (t) => {
  const res = await t0.request({ method: 'GET', url: '/v1/nothing_here', key: shop.testKey });
  t.is(res.statusCode, 404);
  t.like(res.result, { error: { code: 'resource_not_found' } });
  t.regex(String(res.headers['request-id']), /^req_/);
});

test('deeply nested JSON near the size limit is a 400, never a 5xx', async (t) => {
  const depth = 30_000;
  for (const payload of [
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
    `{"amount":1,"currency":"THB","merchant_order_id":"deep","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
  ]) {
    const res = await t0.request({
      method: 'POST',
      url: '/v1/payment_intents',
      key: shop.testKey,
      idempotencyKey: unique(),
      payload,
      headers: { 'content-type': 'application/json' },
    });
    t.is(res.statusCode, 400, res.payload.slice(0, 200));
    t.is(typeof jsonAt(res.result, 'error', 'code'), 'string');
  }
});

test('JSON with __proto__ keys is refused without touching anything', async (t) => {
  const res = await t0.request({
    method: 'POST',
    url: '/v1/payment_intents',
    key: shop.testKey,
    idempotencyKey: unique(),
    payload: '{"amount":100,"currency":"THB","merchant_order_id":"proto","__proto__":{"admin":true}}',
    headers: { 'content-type': 'application/json' },
  });
  t.is(res.statusCode, 400);
  t.is(({} as Record<string, unknown>).admin, undefined);
});
