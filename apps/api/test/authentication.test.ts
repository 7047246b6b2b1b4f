import test from 'ava';
import { MerchantRepository } from '@payments/core';
import { textAt } from './helpers/json';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';

let t0: TestApp;
test.before(async () => {
  // Live limited to 1 request/s per key and test to 2, so spending shows.
  t0 = await startTestApp({ env: { PAYMENTS_RATE_LIMIT_LIVE: '1', PAYMENTS_RATE_LIMIT_TEST: '2' } });
});
test.after.always(async () => t0?.close());

const list = (headers: Record<string, string>) => t0.request({ method: 'GET', url: '/v1/payment_intents', headers });

test('no credential is 401 authentication_required in the envelope', async (t) => {
  const res = await list({});
  t.is(res.statusCode, 401);
  t.like(res.result, { error: { code: 'authentication_required' } });
});

for (const [name, value] of [
  ['an unknown key', 'Bearer sk_test_0000000000000000000000000000000'],
  ['a malformed key', 'Bearer not-a-key'],
  ['a Basic header', 'Basic c2tfdGVzdF86'],
  ['a publishable-looking key', 'Bearer pk_test_0000000000000000000000000000000'],
]) {
  test(`${name} is 401, and the answer never echoes the credential`, async (t) => {
    const res = await list({ authorization: value });
    t.is(res.statusCode, 401);
    t.like(res.result, { error: { code: 'authentication_required' } });
    t.false(res.payload.includes(value.split(' ')[1]));
  });
}

test('a live key before review is 403 live_not_enabled and spends no rate limit', async (t) => {
  const shop = await t0.merchant();
  const live = await shop.liveKey();
  await t0.app.get<MerchantRepository>(MerchantRepository).setLiveEnabled(shop.id, false);
  for (let i = 0; i < 3; i += 1) {
    const refused = await list({ authorization: `Bearer ${live}` });
    t.is(refused.statusCode, 403);
    t.like(refused.result, { error: { code: 'live_not_enabled' } });
  }
  await t0.app.get<MerchantRepository>(MerchantRepository).setLiveEnabled(shop.id, true);
  // The bucket (1 per second) is still full: the refused calls took nothing from it.
  const allowed = await list({ authorization: `Bearer ${live}` });
  t.is(allowed.statusCode, 200);
  const limited = await list({ authorization: `Bearer ${live}` });
  t.is(limited.statusCode, 429);
  t.like(limited.result, { error: { code: 'rate_limited' } });
  t.true(Number(limited.headers['retry-after']) >= 1);
});

test('each key has its own bucket: one key limited leaves another free', async (t) => {
  const a = await t0.merchant();
  const b = await t0.merchant();
  const statuses = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await list({ authorization: `Bearer ${a.testKey}` })).statusCode);
  t.true(statuses.includes(429));
  t.is((await list({ authorization: `Bearer ${b.testKey}` })).statusCode, 200);
});

test('a live key reaches live data only and a test key test data only', async (t) => {
  const shop = await t0.merchant();
  const live = await shop.liveKey();
  const made = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: live, idempotencyKey: unique(), payload: createBody() });
  t.is(made.statusCode, 201);
  const fromTest = await t0.request({ method: 'GET', url: `/v1/payment_intents/${textAt(made.result, 'id')}`, key: shop.testKey });
  t.is(fromTest.statusCode, 404);
});

test('a dashboard cookie or a checkout token is no credential on /v1', async (t) => {
  const cookie = await list({ cookie: 'dashboard_session=abc' });
  t.is(cookie.statusCode, 401);
  const token = await list({ authorization: 'Bearer Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cQ' });
  t.is(token.statusCode, 401);
});
