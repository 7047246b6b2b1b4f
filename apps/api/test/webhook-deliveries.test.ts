import { createHmac, createPublicKey, verify } from 'node:crypto';
import test from 'ava';
import { RelayWebhookDeliveries, type WebhookRequest, type WebhookResponse, type WebhookSender } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { asUser, signIn, type SignedInUser } from './helpers/dashboard';
import { createBody, startTestApp, unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { ResponseValidator } from './openapi/response-validator';
import { apiObjectAt, apiObjectsAt, jsonAt, listAt, objectAt, textAt, type ApiObject } from './helpers/json';

/** Records every request; answers with `status` (changeable by the test). */
class RecordingSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  status = 200;
  /** What the endpoint answers as a body, when anything. */
  body: string | undefined;
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return { status: this.status, latencyMs: 2, ...(this.body === undefined ? {} : { body: this.body }) };
  }
}

let t0: TestApp;
const sender = new RecordingSender();
const clock = new FakeClock(new Date('2026-09-01T12:00:00Z'));
test.before(async () => {
  t0 = await startTestApp({ webhookSender: sender, clock });
});
test.after.always(async () => t0?.close());

const relay = () => runJob(t0.app, RelayWebhookDeliveries, 100);
const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });

async function shopWithEndpoint(): Promise<{ shop: TestMerchant; user: SignedInUser; endpoint: ApiObject }> {
  const shop = await t0.merchant();
  const user = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  const res = await as(user, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url: `https://hooks-${unique()}.example.com/in` });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.payload}`);
  return { shop, user, endpoint: apiObjectAt(res.result) };
}

async function cancelIntent(shop: TestMerchant): Promise<string> {
  const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique(), payload: createBody() });
  const id = textAt(created.result, 'id');
  await t0.request({ method: 'POST', url: `/v1/payment_intents/${id}/cancel`, key: shop.testKey, idempotencyKey: unique() });
  return id;
}

test.serial('a status change is delivered signed; GET /v1/events returns the same id and body', async (t) => {
  const { shop, endpoint } = await shopWithEndpoint();
  const intentId = await cancelIntent(shop);
  const before = sender.requests.length;
  await relay();
  const mine = sender.requests.slice(before).filter((r) => r.url === endpoint.url);
  t.is(mine.length, 1);
  const request = mine[0];
  const body = objectAt(JSON.parse(request.body));
  t.is(body.type, 'payment_intent.canceled');
  t.is(jsonAt(body, 'data', 'id'), intentId);
  const events = (await t0.request({ method: 'GET', url: '/v1/events', key: shop.testKey })).payload;
  const listed = apiObjectsAt(JSON.parse(events), 'data');
  const same = listed.find((event) => event.id === body.id);
  t.truthy(same);
  t.is(JSON.stringify(same), request.body, 'byte for byte the same body');

  const header = request.headers['x-webhook-signature'];
  const parts = Object.fromEntries(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
  t.is(
    parts.v1,
    createHmac('sha256', Buffer.from(textAt(endpoint, 'secret'), 'hex'))
      .update(`${parts.t}.${request.body}`)
      .digest('hex'),
  );
  const keys = objectAt((await t0.request({ method: 'GET', url: '/v1/webhook_public_keys', key: shop.testKey })).result);
  t.like(keys, { object: 'list', has_more: false });
  const key = apiObjectsAt(keys, 'data').find((k) => k.id === parts.v2_kid)!;
  t.like(key, { object: 'webhook_public_key', algorithm: 'ed25519' });
  t.deepEqual(Object.keys(key).sort(), ['algorithm', 'id', 'object', 'public_key']);
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(textAt(key, 'public_key'), 'base64').toString('base64url') },
    format: 'jwk',
  });
  t.true(verify(null, Buffer.from(`${parts.t}.${request.body}`), publicKey, Buffer.from(parts.v2, 'base64')));
});

test.serial(
  "GET /v1/events/{id}: the delivered body byte for byte, as the document's webhook entry of its type describes it; only for its merchant and mode",
  async (t) => {
    const { shop, endpoint } = await shopWithEndpoint();
    const intentId = await cancelIntent(shop);
    const before = sender.requests.length;
    await relay();
    const delivered = sender.requests.slice(before).find((r) => r.url === endpoint.url);
    if (!delivered) return t.fail('nothing was delivered');
    const id = textAt(JSON.parse(delivered.body), 'id');

    const res = await t0.request({ method: 'GET', url: `/v1/events/${id}`, key: shop.testKey });
    t.is(res.statusCode, 200);
    t.is(res.payload, delivered.body, 'the body every delivery of the event carries');
    t.is(jsonAt(res.result, 'data', 'id'), intentId);
    const listed = apiObjectsAt((await t0.request({ method: 'GET', url: '/v1/events?limit=100', key: shop.testKey })).result, 'data');
    t.deepEqual(
      listed.find((event) => event.id === id),
      objectAt(res.result),
      'the same as its item of GET /v1/events',
    );

    const document = objectAt((await t0.request({ method: 'GET', url: '/v1/openapi.json' })).result);
    const entry = objectAt(document, 'webhooks', 'payment_intent.canceled', 'post');
    t.is(
      new ResponseValidator(document).errorsOf(objectAt(entry, 'requestBody', 'content', 'application/json', 'schema'), JSON.parse(delivered.body)),
      undefined,
    );
    const sent = Object.keys(delivered.headers).map((name) => name.toLowerCase());
    for (const parameter of listAt(entry, 'parameters')) {
      const name = textAt(objectAt(document, 'components', 'parameters', textAt(parameter, '$ref').split('/').pop() ?? ''), 'name');
      t.true(sent.includes(name.toLowerCase()), `a delivery carries ${name}`);
    }

    // Another merchant's, the other mode's, an unknown one: 404 alike; a malformed id: 400 naming it.
    const other = await t0.merchant();
    const liveKey = await shop.liveKey();
    const liveIntent = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: liveKey, idempotencyKey: unique(), payload: createBody() });
    await t0.request({ method: 'POST', url: `/v1/payment_intents/${textAt(liveIntent.result, 'id')}/cancel`, key: liveKey, idempotencyKey: unique() });
    const liveEvent = apiObjectsAt((await t0.request({ method: 'GET', url: '/v1/events?limit=1', key: liveKey })).result, 'data')[0];
    t.is(liveEvent.type, 'payment_intent.canceled');
    t.is((await t0.request({ method: 'GET', url: `/v1/events/${liveEvent.id}`, key: liveKey })).statusCode, 200);
    for (const [key, eventId] of [
      [other.testKey, id],
      [liveKey, id],
      [shop.testKey, liveEvent.id],
      [shop.testKey, 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ]) {
      const missing = await t0.request({ method: 'GET', url: `/v1/events/${eventId}`, key });
      t.is(missing.statusCode, 404);
      t.is(jsonAt(missing.result, 'error', 'code'), 'resource_not_found');
    }
    const malformed = await t0.request({ method: 'GET', url: '/v1/events/pi_123', key: shop.testKey });
    t.is(malformed.statusCode, 400);
    t.like(objectAt(malformed.result, 'error'), { code: 'invalid_parameter', param: 'id' });
  },
);

test.serial('GET /v1/webhook_public_keys needs an API key', async (t) => {
  t.is((await t0.request({ method: 'GET', url: '/v1/webhook_public_keys' })).statusCode, 401);
});

test.serial('dashboard: deliveries listed newest first per endpoint; resend re-arms without calling; health on the endpoint', async (t) => {
  const { shop, user, endpoint } = await shopWithEndpoint();
  sender.status = 500;
  await cancelIntent(shop);
  await cancelIntent(shop);
  await relay();
  const list = await as(user, 'GET', `/dashboard/v1/webhook_deliveries?mode=test&endpoint=${endpoint.id}`);
  t.is(list.statusCode, 200);
  const page = objectAt(list.result);
  t.like(page, { object: 'list', has_more: false });
  t.is(listAt(page, 'data').length, 2);
  const [newest, older] = apiObjectsAt(page, 'data');
  t.deepEqual(
    Object.keys(newest).sort(),
    ['attempts', 'created', 'endpoint', 'event', 'event_type', 'id', 'mode', 'next_retry_at', 'object', 'response_status', 'status', 'url'].sort(),
  );
  t.is(newest.event_type, 'payment_intent.canceled', "the delivery names its event's type");
  t.like(newest, { object: 'webhook_delivery', endpoint: endpoint.id, url: endpoint.url, status: 'pending', attempts: 1, response_status: 500 });
  const paged = objectAt((await as(user, 'GET', `/dashboard/v1/webhook_deliveries?mode=test&limit=1&starting_after=${newest.id}`)).result);
  t.deepEqual(
    apiObjectsAt(paged, 'data').map((d) => d.id),
    [older.id],
  );

  const health = jsonAt((await as(user, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).result, 'data', 0);
  t.like(health, { delivery_attempts: 2, success_rate: 0, last_error: 'HTTP 500' });

  const calls = sender.requests.length;
  const resent = await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${newest.id}/resend?mode=test`);
  t.is(resent.statusCode, 202);
  t.like(resent.result, { id: newest.id, status: 'pending', next_retry_at: '2026-09-01T12:00:00Z' });
  t.is(sender.requests.length, calls, 'the resend calls nothing itself');
  sender.status = 200;
  await relay();
  const after = objectAt((await as(user, 'GET', `/dashboard/v1/webhook_deliveries?mode=test&endpoint=${endpoint.id}`)).result);
  t.like(jsonAt(after, 'data', 0), { id: newest.id, status: 'delivered', attempts: 2, response_status: 200 });
  t.false('next_retry_at' in objectAt(after, 'data', 0));
  const rate = jsonAt((await as(user, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).result, 'data', 0);
  t.like(rate, { delivery_attempts: 3, success_rate: 0.3333 });
});

test.serial('dashboard: one delivery shows the body it sent (not stored: its event rendered again) and each attempt with the endpoint answer', async (t) => {
  const { shop, user, endpoint } = await shopWithEndpoint();
  sender.status = 503;
  sender.body = '{"error":"busy — ลองใหม่"}';
  const before = sender.requests.length;
  await cancelIntent(shop);
  await relay();
  sender.status = 200;
  sender.body = 'ok';
  const [listed] = apiObjectsAt((await as(user, 'GET', `/dashboard/v1/webhook_deliveries?endpoint=${endpoint.id}`)).result, 'data');
  await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${listed.id}/resend`);
  await relay();
  sender.body = undefined;
  const sent = sender.requests.slice(before).filter((request) => request.url === endpoint.url);
  t.is(sent.length, 2);
  const shown = await as(user, 'GET', `/dashboard/v1/webhook_deliveries/${listed.id}`);
  t.is(shown.statusCode, 200, shown.payload);
  const detail = objectAt(shown.result);
  t.like(detail, {
    id: listed.id,
    event_type: 'payment_intent.canceled',
    status: 'delivered',
    attempts: 2,
    request: { api_version: '2026-09-01', body: sent[1]?.body },
  });
  const log = apiObjectsAt(detail, 'attempt_log');
  t.deepEqual(
    log.map((attempt) => [attempt.response_status, attempt.response_body, attempt.api_version, attempt.error]),
    [
      [503, '{"error":"busy — ลองใหม่"}', '2026-09-01', 'HTTP 503'],
      [200, 'ok', '2026-09-01', undefined],
    ],
  );
  t.false(JSON.stringify(detail).includes('v1='), 'no signature header is shown');
  const stranger = await signIn(t0, { merchantId: (await t0.merchant()).id, role: 'owner' });
  t.is((await as(stranger, 'GET', `/dashboard/v1/webhook_deliveries/${listed.id}`)).statusCode, 404, "another merchant's");
  t.is((await as(user, 'GET', `/dashboard/v1/webhook_deliveries/${listed.id}?mode=live`)).statusCode, 404, 'another mode as a filter');
  t.is((await as(user, 'GET', '/dashboard/v1/webhook_deliveries/nope')).statusCode, 400);
});

test.serial('dashboard: a test event is an example of the chosen type, signed like a delivery, sent now, its answer shown; no event of the log', async (t) => {
  const { shop, user, endpoint } = await shopWithEndpoint();
  sender.status = 401;
  sender.body = 'bad signature';
  const before = sender.requests.length;
  const res = await as(user, 'POST', `/dashboard/v1/webhook_endpoints/${endpoint.id}/test_event`, { type: 'refund.succeeded' });
  sender.status = 200;
  sender.body = undefined;
  t.is(res.statusCode, 200, res.payload);
  const sent = sender.requests.slice(before);
  t.is(sent.length, 1, 'sent at once, by the request itself');
  t.is(sent[0]?.url, textAt(endpoint, 'url'));
  t.regex(sent[0]?.headers['x-webhook-signature'] ?? '', /^t=\d+,v1=[0-9a-f]{64},v2=/);
  const body = objectAt(JSON.parse(sent[0]?.body ?? '{}'));
  t.like(body, {
    type: 'refund.succeeded',
    livemode: false,
    data: { id: 're_AAAAAAAAAAAAAAAAAAAAAAAAAA', object: 'refund', status: 'succeeded', merchant: shop.id, mode: 'test' },
  });
  t.like(res.result, {
    object: 'webhook_test_event',
    type: 'refund.succeeded',
    request: { api_version: '2026-09-01', body: sent[0]?.body },
    response: { status: 401, body: 'bad signature', error: 'HTTP 401', latency_ms: 2 },
  });
  const events = await t0.request({ method: 'GET', url: `/v1/events/${String(body.id)}`, key: shop.testKey });
  t.is(events.statusCode, 404, 'no event of the log');
  const byDefault = await as(user, 'POST', `/dashboard/v1/webhook_endpoints/${endpoint.id}/test_event`, {});
  t.like(byDefault.result, { type: 'payment_intent.succeeded' });
  t.is((await as(user, 'POST', `/dashboard/v1/webhook_endpoints/${endpoint.id}/test_event`, { type: 'payment.nope' })).statusCode, 400);
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  t.is((await as(viewer, 'POST', `/dashboard/v1/webhook_endpoints/${endpoint.id}/test_event`, {})).statusCode, 403);
  const stranger = await signIn(t0, { merchantId: (await t0.merchant()).id, role: 'owner' });
  t.is((await as(stranger, 'POST', `/dashboard/v1/webhook_endpoints/${endpoint.id}/test_event`, {})).statusCode, 404);
  const options = await as(viewer, 'GET', '/dashboard/v1/webhook_options');
  t.is(options.statusCode, 200);
  t.like(options.result, { object: 'webhook_options', api_versions: ['2026-09-01'], current_api_version: '2026-09-01' });
  t.false(listAt(options.result, 'default_event_types').includes('refund.created'), 'the refund events are not sent to an endpoint that names none');
  t.true(listAt(options.result, 'event_types').includes('refund.created'));
});

test.serial("another merchant's delivery is 404 to list filters and resend", async (t) => {
  const { shop, user } = await shopWithEndpoint();
  await cancelIntent(shop);
  const [delivery] = apiObjectsAt((await as(user, 'GET', '/dashboard/v1/webhook_deliveries?mode=test')).result, 'data');
  const stranger = await signIn(t0, { merchantId: (await t0.merchant()).id, role: 'owner' });
  t.is((await as(stranger, 'POST', `/dashboard/v1/webhook_deliveries/${delivery.id}/resend?mode=test`)).statusCode, 404);
  t.deepEqual(jsonAt((await as(stranger, 'GET', '/dashboard/v1/webhook_deliveries?mode=test')).result, 'data'), []);
  t.is((await as(stranger, 'GET', `/dashboard/v1/webhook_deliveries?mode=test&starting_after=${delivery.id}`)).statusCode, 400);
  t.is((await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${delivery.id}/resend?mode=live`)).statusCode, 404, 'other mode');
});

test.serial('a deleted endpoint is queued nothing; its old deliveries keep their url', async (t) => {
  const { shop, user, endpoint } = await shopWithEndpoint();
  await cancelIntent(shop);
  t.is((await as(user, 'DELETE', `/dashboard/v1/webhook_endpoints/${endpoint.id}`)).statusCode, 200);
  await cancelIntent(shop);
  const data = apiObjectsAt((await as(user, 'GET', '/dashboard/v1/webhook_deliveries?mode=test')).result, 'data');
  t.is(data.length, 1);
  t.is(data[0].url, endpoint.url);
});
