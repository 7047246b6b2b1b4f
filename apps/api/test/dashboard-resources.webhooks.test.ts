import test from 'ava';
import { AuditLog } from './helpers/dashboard-resources';
import { asUser, errorOf, signIn, type SignedInUser } from './helpers/dashboard';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { apiObjectAt, apiObjectsAt, jsonAt, objectAt, textAt, type ApiObject } from './helpers/json';

let t0: TestApp;
let shop: TestMerchant;
let developer: SignedInUser;
withAppAndMerchant({}, async (started) => {
  ({ t0, shop } = started);
  developer = await signIn(t0, { merchantId: shop.id, role: 'developer' });
});

const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });

async function create(user: SignedInUser, body: Record<string, unknown> = {}, mode = 'test'): Promise<ApiObject> {
  const res = await as(user, 'POST', `/dashboard/v1/webhook_endpoints?mode=${mode}`, { url: 'https://hooks.example.com/payments', ...body });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.payload}`);
  return apiObjectAt(res.result);
}

test("create answers 201 with the secret once (64 hex), at the account's version, enabled; the list never shows it", async (t) => {
  const merchant = await t0.merchant();
  const user = await signIn(t0, { merchantId: merchant.id, role: 'developer' });
  // The first /v1 request pins the account; the endpoint takes that version.
  await t0.request({ method: 'GET', url: '/v1/payment_intents', key: merchant.testKey });
  const res = await as(user, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', {
    url: 'https://hooks.example.com/payments',
    enabled_events: ['payment_intent.succeeded', 'settlement.paid'],
    description: 'orders service',
  });
  t.is(res.statusCode, 201);
  const created = apiObjectAt(res.result);
  t.like(created, {
    object: 'webhook_endpoint',
    mode: 'test',
    url: 'https://hooks.example.com/payments',
    description: 'orders service',
    api_version: '2026-09-01',
    status: 'enabled',
  });
  t.deepEqual(created.enabled_events, ['payment_intent.succeeded', 'settlement.paid']);
  const secret = textAt(created, 'secret');
  t.regex(secret, /^[0-9a-f]{64}$/);
  t.regex(created.id, /^we_/);

  const list = await as(user, 'GET', '/dashboard/v1/webhook_endpoints?mode=test');
  t.is(list.statusCode, 200);
  t.like(list.result, { object: 'list', has_more: false });
  const { secret: _shownOnce, ...withoutSecret } = created;
  t.deepEqual(apiObjectsAt(list.result, 'data'), [withoutSecret]);
  t.false(list.payload.includes(secret));
  const patched = await as(user, 'PATCH', `/dashboard/v1/webhook_endpoints/${created.id}`, { status: 'disabled' });
  t.false(patched.payload.includes(secret));
  t.false('secret' in objectAt(patched.result));
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 2);
  t.false(JSON.stringify(entry).includes(secret));
  t.deepEqual(apiObjectsAt((await as(user, 'GET', '/dashboard/v1/webhook_endpoints?mode=live')).result, 'data'), [], 'per mode');
});

test('every endpoint gets a secret of its own, and an empty event list means every type', async (t) => {
  const a = await create(developer);
  const b = await create(developer);
  t.not(a.secret, b.secret);
  t.deepEqual(a.enabled_events, []);
});

test('url must be https on a public host name: 400 invalid_url otherwise', async (t) => {
  for (const url of [
    'http://hooks.example.com/',
    'https://127.0.0.1/hook',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://10.1.2.3/',
    'https://localhost/',
    'https://hooks.localhost/',
    'https://user:pass@hooks.example.com/',
    'https://intranet/',
    'hooks.example.com/',
    '',
    `https://hooks.example.com/${'a'.repeat(2100)}`,
  ]) {
    const res = await as(developer, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, code: 'invalid_url', param: 'url' }, url.slice(0, 60));
  }
  for (const payload of [{}, { url: 42 }, { url: null }]) {
    const res = await as(developer, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', payload);
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, code: 'invalid_url', param: 'url' }, JSON.stringify(payload));
  }
});

test('enabled_events takes known event types only, 400 naming the field; unknown fields and mode are refused too', async (t) => {
  for (const enabled_events of [['payment_intent.created'], ['charge.succeeded'], ['*'], 'payment_intent.succeeded', [1], [null]]) {
    const res = await as(developer, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url: 'https://hooks.example.com/', enabled_events });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, code: 'invalid_parameter', param: 'enabled_events' }, JSON.stringify(enabled_events));
  }
  const unknown = await as(developer, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url: 'https://hooks.example.com/', secret: 'ab'.repeat(32) });
  t.like({ status: unknown.statusCode, ...errorOf(unknown) }, { status: 400, param: 'secret' });
  t.false(unknown.payload.includes('ab'.repeat(32)));
  for (const url of ['/dashboard/v1/webhook_endpoints', '/dashboard/v1/webhook_endpoints?mode=sandbox']) {
    const res = await as(developer, 'POST', url, { url: 'https://hooks.example.com/' });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, param: 'mode' }, url);
  }
});

test('PATCH changes url, events, api_version and status; an unknown version is 400 invalid_api_version', async (t) => {
  const endpoint = await create(developer, { enabled_events: ['dispute.opened'] });
  const res = await as(developer, 'PATCH', `/dashboard/v1/webhook_endpoints/${endpoint.id}`, {
    url: 'https://new.example.com/in',
    enabled_events: [],
    api_version: '2026-09-01',
    status: 'disabled',
  });
  t.is(res.statusCode, 200);
  t.like(res.result, { id: endpoint.id, url: 'https://new.example.com/in', status: 'disabled', disabled_reason: 'manual', api_version: '2026-09-01' });
  t.deepEqual(jsonAt(res.result, 'enabled_events'), []);
  const listed = apiObjectsAt((await as(developer, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).result, 'data').find((e) => e.id === endpoint.id);
  t.like(listed, { status: 'disabled', disabled_reason: 'manual' }, 'the list says why too');
  const enabled = await as(developer, 'PATCH', `/dashboard/v1/webhook_endpoints/${endpoint.id}`, { status: 'enabled' });
  t.like(enabled.result, { status: 'enabled', url: 'https://new.example.com/in' });
  t.false('disabled_reason' in objectAt(enabled.result), 'an enabled endpoint has no reason');

  for (const [payload, code, param] of [
    [{ api_version: '2025-01-01' }, 'invalid_api_version', 'api_version'],
    [{ api_version: 'latest' }, 'invalid_api_version', 'api_version'],
    [{ status: 'paused' }, 'invalid_parameter', 'status'],
    [{ url: 'http://new.example.com/' }, 'invalid_url', 'url'],
    [{ enabled_events: ['payment_intent.paid'] }, 'invalid_parameter', 'enabled_events'],
    [{ secret: 'x' }, 'invalid_parameter', 'secret'],
    [{ mode: 'live' }, 'invalid_parameter', 'mode'],
  ] as const) {
    const refused = await as(developer, 'PATCH', `/dashboard/v1/webhook_endpoints/${endpoint.id}`, payload);
    t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 400, code, param }, JSON.stringify(payload));
  }
});

test('DELETE answers the deleted marker, keeps a tombstone, and the endpoint is 404 afterwards', async (t) => {
  const endpoint = await create(developer);
  const res = await as(developer, 'DELETE', `/dashboard/v1/webhook_endpoints/${endpoint.id}`);
  t.is(res.statusCode, 200);
  t.deepEqual(res.result, { id: endpoint.id, object: 'webhook_endpoint', deleted: true });
  t.false(apiObjectsAt((await as(developer, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).result, 'data').some((e) => e.id === endpoint.id));
  for (const [method, payload] of [
    ['DELETE', undefined],
    ['PATCH', { status: 'enabled' }],
  ] as const) {
    const again = await as(developer, method, `/dashboard/v1/webhook_endpoints/${endpoint.id}`, payload);
    t.like({ status: again.statusCode, ...errorOf(again) }, { status: 404, code: 'resource_not_found' }, method);
  }
  const entries = await t0.app.get<AuditLog>(AuditLog).listForMerchant(shop.id, 50);
  t.like(
    entries.find((e) => e.objectId === endpoint.id),
    { action: 'webhook_endpoints.write', details: { change: 'deleted' } },
  );
});

test('tenancy: another merchant cannot list, change or delete the endpoints', async (t) => {
  const endpoint = await create(developer, {}, 'live');
  const other = await t0.merchant();
  const stranger = await signIn(t0, { merchantId: other.id, role: 'owner' });
  t.deepEqual(apiObjectsAt((await as(stranger, 'GET', '/dashboard/v1/webhook_endpoints?mode=live')).result, 'data'), []);
  for (const [method, payload] of [
    ['PATCH', { status: 'disabled' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await as(stranger, method, `/dashboard/v1/webhook_endpoints/${endpoint.id}`, payload);
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 404, code: 'resource_not_found' }, method);
  }
  t.like(
    apiObjectsAt((await as(developer, 'GET', '/dashboard/v1/webhook_endpoints?mode=live')).result, 'data').find((e) => e.id === endpoint.id),
    {
      status: 'enabled',
    },
  );
  const malformed = await as(developer, 'DELETE', '/dashboard/v1/webhook_endpoints/https%3A%2F%2Fx');
  t.like({ status: malformed.statusCode, ...errorOf(malformed) }, { status: 400, param: 'id' });
});

test('viewers read endpoints but cannot change them', async (t) => {
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const endpoint = await create(developer);
  t.is((await as(viewer, 'GET', '/dashboard/v1/webhook_endpoints?mode=test')).statusCode, 200);
  t.is((await as(viewer, 'POST', '/dashboard/v1/webhook_endpoints?mode=test', { url: 'https://hooks.example.com/' })).statusCode, 403);
  t.is((await as(viewer, 'PATCH', `/dashboard/v1/webhook_endpoints/${endpoint.id}`, { status: 'disabled' })).statusCode, 403);
  t.is((await as(viewer, 'DELETE', `/dashboard/v1/webhook_endpoints/${endpoint.id}`)).statusCode, 403);
});
