import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { CreateMerchant, ReleaseFunds, ReportChannelSettlements } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { ResponseValidator } from './openapi/response-validator';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { apiObjectAt, apiObjectsAt, jsonAt, keysAt, listAt, objectAt, textAt, type JsonObject } from './helpers/json';

const clock = new FakeClock(new Date());
let t0: TestApp;
let document: JsonObject;
let validator: ResponseValidator;

test.before(async () => {
  t0 = await startTestApp({ clock });
  const res = await t0.request({ method: 'GET', url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.payload}`);
  document = objectAt(JSON.parse(res.payload));
  validator = new ResponseValidator(document);
});
test.after.always(async () => t0?.close());

/** The `/v1` routes the server really has, as `METHOD path`. */
function serverRoutes(): string[] {
  return t0.server
    .table()
    .filter((route) => route.path.startsWith('/v1/'))
    .map((route) => `${route.method.toUpperCase()} ${route.path}`)
    .sort();
}

/** Sends a request and checks its answer against the document for the route it reached. */
async function call(
  key: string | undefined,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: JsonObject }> {
  const res = await t0.request({
    method,
    url,
    ...(key ? { key } : {}),
    ...(method === 'POST' ? { idempotencyKey: unique() } : {}),
    ...(payload === undefined ? {} : { payload }),
    headers,
  });
  const body = objectAt(JSON.parse(res.payload));
  const path = res.request.route.path;
  validator.check(method, path, res.statusCode, body);
  return { status: res.statusCode, body };
}

test('every /v1 route of the server is in the document, with an operation and a success answer', (t) => {
  const documented = Object.entries(objectAt(document.paths)).flatMap(([path, item]) =>
    Object.entries(objectAt(item))
      .filter(([, operation]) => jsonAt(operation, 'operationId') && !jsonAt(operation, 'x-undocumented'))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  const missing = serverRoutes().filter((route) => !documented.includes(route));
  t.deepEqual(
    missing,
    [],
    `routes missing from the OpenAPI document (give each an openapi entry in its route file under apps/api/src/routes): ${missing.join(', ')}`,
  );
  t.is(document.openapi, '3.1.0');
});

test('docs/openapi.json is what the server serves (run `npm run openapi` after changing a route)', (t) => {
  const written = objectAt(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8')));
  t.deepEqual(written, document);
});

test.serial('answers of every /v1 route, successes and errors, validate against the document', async (t) => {
  const created = await t0.app.get(CreateMerchant).execute({
    name: 'OpenAPI Shop',
    email: `openapi-${unique()}@example.com`,
    password: 'correct horse battery',
    settlementSchedule: 'manual',
  });
  const key = created.testApiKey.secret;
  const other = await t0.merchant();

  // Payment intents: create, replay-free errors, list, retrieve, cancel.
  const intent = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody({ amount: 10000, metadata: { order: '1' } }))).body);
  t.truthy(intent.checkout_url);
  t.is((await call(key, 'POST', '/v1/payment_intents', { amount: 0, currency: 'THB', merchant_order_id: 'x' })).status, 400);
  t.is((await call(key, 'POST', '/v1/payment_intents', createBody({ merchant_order_id: intent.merchant_order_id }))).status, 409);
  t.is((await call(undefined, 'GET', '/v1/payment_intents')).status, 401);
  t.is((await call(key, 'GET', '/v1/payment_intents?status=created&limit=2')).status, 200);
  t.is((await call(key, 'GET', `/v1/payment_intents/${intent.id}`)).status, 200);
  t.is((await call(other.testKey, 'GET', `/v1/payment_intents/${intent.id}`)).status, 404);
  const toCancel = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody())).body);
  t.is((await call(key, 'POST', `/v1/payment_intents/${toCancel.id}/cancel`)).body.status, 'canceled');
  t.is((await call(key, 'POST', `/v1/payment_intents/${toCancel.id}/cancel`)).status, 409);

  // Attempts and the test helpers: pay, settle at the channel, release.
  t.is((await call(key, 'POST', `/v1/payment_intents/${intent.id}/attempts`, { payment_method: 'promptpay' })).status, 201);
  t.is((await call(key, 'POST', `/v1/payment_intents/${intent.id}/attempts`, { payment_method: 'promptpay' })).status, 200);
  t.is(listAt((await call(key, 'GET', `/v1/payment_intents/${intent.id}/attempts`)).body, 'data').length, 1);
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/advance`, { clock: 'release' })).status, 409);
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/simulate`, { outcome: 'succeeded' })).body.status, 'succeeded');
  await tick();
  t.is((await call(key, 'GET', `/v1/payment_intents/${intent.id}`)).body.status, 'channel_settled');
  t.is((await call(key, 'POST', `/v1/test/payment_intents/${intent.id}/advance`, { clock: 'release' })).status, 200);
  await tick();

  // Balance, settlements (this merchant settles on demand; the other one is on a schedule).
  t.is((await call(key, 'GET', '/v1/balance')).status, 200);
  const settlement = await call(key, 'POST', '/v1/settlements');
  t.is(settlement.status, 201, JSON.stringify(settlement.body));
  t.is((await call(other.testKey, 'POST', '/v1/settlements')).status, 403);
  t.is(listAt((await call(key, 'GET', '/v1/settlements')).body, 'data').length, 1);
  t.is((await call(key, 'GET', `/v1/settlements/${textAt(settlement.body, 'id')}`)).status, 200);

  // Disputes on a second paid intent.
  const disputed = apiObjectAt((await call(key, 'POST', '/v1/payment_intents', createBody({ amount: 5000 }))).body);
  await call(key, 'POST', `/v1/payment_intents/${disputed.id}/attempts`, { payment_method: 'promptpay' });
  await call(key, 'POST', `/v1/test/payment_intents/${disputed.id}/simulate`, { outcome: 'succeeded' });
  await call(key, 'POST', `/v1/test/payment_intents/${disputed.id}/simulate`, { outcome: 'dispute_opened' });
  const disputes = apiObjectsAt((await call(key, 'GET', '/v1/disputes?status=opened')).body, 'data');
  t.is(disputes.length, 1);
  const disputeId = disputes[0].id;
  t.is((await call(key, 'GET', `/v1/disputes/${disputeId}`)).status, 200);
  t.is((await call(key, 'POST', `/v1/disputes/${disputeId}/evidence`, { evidence: { receipt: 'https://shop.example.com/r/1' } })).status, 200);
  t.is((await call(key, 'GET', '/v1/disputes/dp_missing')).status, 404);

  // Refunds of the first intent (paid and released): create, simulate, list, retrieve, the rules' 409s.
  const refund = await call(key, 'POST', '/v1/refunds', { payment_intent: intent.id, amount: 1000, reason: 'requested_by_customer' });
  t.is(refund.status, 201, JSON.stringify(refund.body));
  const refundId = textAt(refund.body, 'id');
  t.is((await call(key, 'POST', `/v1/test/refunds/${refundId}/simulate`, { outcome: 'succeeded' })).body.status, 'succeeded');
  t.is((await call(key, 'POST', '/v1/refunds', { payment_intent: intent.id, amount: 10_000 })).status, 409);
  t.is((await call(key, 'POST', '/v1/refunds', { payment_intent: disputed.id })).status, 409);
  t.is(listAt((await call(key, 'GET', `/v1/refunds?payment_intent=${intent.id}`)).body, 'data').length, 1);
  t.is((await call(key, 'GET', `/v1/refunds/${refundId}`)).status, 200);
  t.is((await call(other.testKey, 'GET', `/v1/refunds/${refundId}`)).status, 404);

  // FX, events, webhook keys, versions.
  t.is((await call(key, 'GET', '/v1/fx/quotes?from=USD&to=THB&amount=1000')).status, 200);
  t.is((await call(key, 'GET', '/v1/fx/quotes?from=usd&to=THB')).status, 400);
  t.true(listAt((await call(key, 'GET', '/v1/events?limit=100')).body, 'data').length > 3);
  t.is((await call(key, 'GET', '/v1/webhook_public_keys')).status, 200);
  t.is((await call(key, 'GET', '/v1/balance', undefined, { 'api-version': '1999-01-01' })).status, 400);

  // Every documented operation answered at least once with its success status.
  const succeeded = Object.entries(objectAt(document.paths)).flatMap(([path, item]) =>
    Object.entries(objectAt(item)).map(([method, operation]) => `${method.toUpperCase()} ${path} ${keysAt(operation, 'responses')[0]}`),
  );
  const unseen = succeeded.filter((route) => !route.startsWith('GET /v1/openapi.json') && !validator.seen.has(route));
  t.deepEqual(unseen, []);
});

/** One worker pass of the jobs a paid intent goes through (simulator settlement, channel_settled, release). */
async function tick(): Promise<void> {
  clock.advance(1000);
  await t0.app.get(SimulatorPaymentChannel).tick();
  await runJob(t0.app, ReportChannelSettlements, 100);
  await runJob(t0.app, ReleaseFunds, 100);
}
