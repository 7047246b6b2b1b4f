import test from 'ava';
import { MerchantRepository } from '@payments/core';
import { jsonAt } from './helpers/json';
import { startTestApp, type TestApp } from './helpers/test-app';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(async () => t0?.close());

test('the first /v1 request pins the account to the current version', async (t) => {
  const shop = await t0.merchant();
  const merchants = t0.app.get<MerchantRepository>(MerchantRepository);
  t.is((await merchants.findById(shop.id))?.apiVersion, undefined);
  const res = await t0.request({ method: 'GET', url: '/v1/events', key: shop.testKey });
  t.is(res.statusCode, 200);
  t.is(res.headers['api-version'], '2026-09-01');
  t.is((await merchants.findById(shop.id))?.apiVersion, '2026-09-01');
});

test('an explicit, served Api-Version answers', async (t) => {
  const shop = await t0.merchant();
  const res = await t0.request({ method: 'GET', url: '/v1/events', key: shop.testKey, headers: { 'api-version': '2026-09-01' } });
  t.is(res.statusCode, 200);
  t.is(res.headers['api-version'], '2026-09-01');
});

for (const version of ['2020-01-01', 'latest', '2026-9-1']) {
  test(`Api-Version ${version} is 400 invalid_api_version`, async (t) => {
    const shop = await t0.merchant();
    const res = await t0.request({ method: 'GET', url: '/v1/payment_intents', key: shop.testKey, headers: { 'api-version': version } });
    t.is(res.statusCode, 400);
    t.like(res.result, { error: { code: 'invalid_api_version', param: 'Api-Version' } });
    t.is(res.headers['api-version'], '2026-09-01');
  });
}

test('errors carry Api-Version and Request-Id too', async (t) => {
  const res = await t0.request({ method: 'GET', url: '/v1/payment_intents' });
  t.is(res.statusCode, 401);
  t.is(res.headers['api-version'], '2026-09-01');
  t.regex(String(res.headers['request-id']), /^req_[0-9A-Za-z]{22}$/);
  t.is(jsonAt(res.result, 'error', 'request_id'), res.headers['request-id']);
});
