import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { ServerInjectResponse } from '@hapi/hapi';
import {
  API_KEY_RESOURCES,
  IssueApiKey,
  MerchantRepository,
  mayPerform,
  parsePermission,
  type ApiKeyPermission,
  type ApiKeyPermissions,
  type ApiKeyResource,
  type DashboardAction,
  type UserRole,
} from '@payments/core';
import { startTestApp, unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { signIn, totpCode, type SignedInUser } from './helpers/dashboard';
import { checkoutClient } from './helpers/checkout';
import { paymentFlow } from './helpers/payment-flow';
import { apiObjectsAt, jsonAt, objectAt, textAt } from './helpers/json';

/**
 * The authorization matrix: every route of `server.table()` × every kind of credential, against
 * the answer the service promises (the `/v1` request in docs/architecture.md, the roles of
 * docs/dashboard.md, the security schemes of docs/openapi.json). A route the table below does not name fails the test, so a new route gets
 * an expectation before it ships.
 */

type Group =
  /** `/v1` behind a bearer API key; `scope` says what the path points at. */
  | {
      kind: 'v1';
      scope: 'collection' | 'intent' | 'dispute' | 'settlement' | 'refund' | 'event' | 'balance_transaction';
      /** What a restricted key needs (docs/api-keys.md). */
      permission: ApiKeyPermission;
      testOnly?: boolean;
    }
  /** `/dashboard/v1` behind the session cookie; the action the role table decides on. */
  | { kind: 'dashboard'; action: DashboardAction }
  /** No credential at all: the token in the path is the whole authority. */
  | { kind: 'checkout' }
  /** No credential: open to anyone (sign-in, MFA claim, documents, health, static assets, channel callbacks signed by the channel). */
  | { kind: 'open' };

/** Every route and the access group that guards it. */
const ROUTES: Record<string, Group> = {
  // Merchant API (`/v1`, bearer key)
  'POST /v1/payment_intents': { kind: 'v1', scope: 'collection', permission: 'payment_intents:write' },
  'GET /v1/payment_intents': { kind: 'v1', scope: 'collection', permission: 'payment_intents:read' },
  'GET /v1/payment_intents/{id}': { kind: 'v1', scope: 'intent', permission: 'payment_intents:read' },
  'POST /v1/payment_intents/{id}/cancel': { kind: 'v1', scope: 'intent', permission: 'payment_intents:write' },
  'POST /v1/payment_intents/{id}/attempts': { kind: 'v1', scope: 'intent', permission: 'payment_intents:write' },
  'GET /v1/payment_intents/{id}/attempts': { kind: 'v1', scope: 'intent', permission: 'payment_intents:read' },
  'POST /v1/test/payment_intents/{id}/simulate': { kind: 'v1', scope: 'intent', permission: 'payment_intents:write', testOnly: true },
  'POST /v1/test/payment_intents/{id}/advance': { kind: 'v1', scope: 'intent', permission: 'payment_intents:write', testOnly: true },
  'POST /v1/refunds': { kind: 'v1', scope: 'collection', permission: 'refunds:write' },
  'GET /v1/refunds': { kind: 'v1', scope: 'collection', permission: 'refunds:read' },
  'GET /v1/refunds/{id}': { kind: 'v1', scope: 'refund', permission: 'refunds:read' },
  'POST /v1/test/refunds/{id}/simulate': { kind: 'v1', scope: 'refund', permission: 'refunds:write', testOnly: true },
  'GET /v1/disputes': { kind: 'v1', scope: 'collection', permission: 'disputes:read' },
  'GET /v1/disputes/{id}': { kind: 'v1', scope: 'dispute', permission: 'disputes:read' },
  'POST /v1/disputes/{id}/evidence': { kind: 'v1', scope: 'dispute', permission: 'disputes:write' },
  'POST /v1/settlements': { kind: 'v1', scope: 'collection', permission: 'settlements:write' },
  'GET /v1/settlements': { kind: 'v1', scope: 'collection', permission: 'settlements:read' },
  'GET /v1/settlements/{id}': { kind: 'v1', scope: 'settlement', permission: 'settlements:read' },
  'GET /v1/balance': { kind: 'v1', scope: 'collection', permission: 'balance:read' },
  'GET /v1/balance_transactions': { kind: 'v1', scope: 'collection', permission: 'balance:read' },
  'GET /v1/balance_transactions/{id}': { kind: 'v1', scope: 'balance_transaction', permission: 'balance:read' },
  'GET /v1/fx/quotes': { kind: 'v1', scope: 'collection', permission: 'payment_intents:read' },
  'GET /v1/events': { kind: 'v1', scope: 'collection', permission: 'events:read' },
  'GET /v1/events/{id}': { kind: 'v1', scope: 'event', permission: 'events:read' },
  'GET /v1/webhook_public_keys': { kind: 'v1', scope: 'collection', permission: 'webhook_public_keys:read' },
  'GET /v1/exports/payment_intents.csv': { kind: 'v1', scope: 'collection', permission: 'payment_intents:read' },
  'GET /v1/exports/settlements.csv': { kind: 'v1', scope: 'collection', permission: 'settlements:read' },
  'GET /v1/exports/balance_transactions.csv': { kind: 'v1', scope: 'collection', permission: 'balance:read' },
  'GET /v1/openapi.json': { kind: 'open' },
  // Hosted checkout (no key; the token in the path is the whole authority)
  'GET /c/{token}': { kind: 'checkout' },
  'POST /checkout/sessions/{token}/pay': { kind: 'checkout' },
  'POST /checkout/sessions/{token}/simulate': { kind: 'checkout' },
  'GET /checkout/sessions/{token}/status': { kind: 'checkout' },
  'GET /checkout/assets/{file}': { kind: 'open' },
  'GET /checkout/simulator-wallet/{order}': { kind: 'open' },
  // The merchant console's page and files: no data in them, the session is checked by /dashboard/v1
  'GET /dashboard/{path*}': { kind: 'open' },
  'GET /dashboard/assets/{file}': { kind: 'open' },
  // Channels report with their own signature over the body
  'POST /channels/{channel}/callback/{mode}': { kind: 'open' },
  // Dashboard (`/dashboard/v1`, cookie `dashboard_session`, unless open)
  'POST /dashboard/v1/session': { kind: 'open' },
  'POST /dashboard/v1/mfa': { kind: 'open' },
  'GET /dashboard/v1/session': { kind: 'dashboard', action: 'session.read' },
  'DELETE /dashboard/v1/session': { kind: 'dashboard', action: 'session.read' },
  'GET /dashboard/v1/users': { kind: 'dashboard', action: 'users.read' },
  'POST /dashboard/v1/users': { kind: 'dashboard', action: 'users.write' },
  'PATCH /dashboard/v1/users/{id}': { kind: 'dashboard', action: 'users.write' },
  'POST /dashboard/v1/users/{id}/mfa': { kind: 'dashboard', action: 'users.reset_mfa' },
  'GET /dashboard/v1/settings': { kind: 'dashboard', action: 'settings.read' },
  'PATCH /dashboard/v1/settings': { kind: 'dashboard', action: 'settings.write' },
  'GET /dashboard/v1/api_keys': { kind: 'dashboard', action: 'api_keys.read' },
  'POST /dashboard/v1/api_keys': { kind: 'dashboard', action: 'api_keys.write' },
  'POST /dashboard/v1/api_keys/{id}/revoke': { kind: 'dashboard', action: 'api_keys.write' },
  'GET /dashboard/v1/signing_keys': { kind: 'dashboard', action: 'signing_keys.read' },
  'POST /dashboard/v1/signing_keys': { kind: 'dashboard', action: 'signing_keys.write' },
  'GET /dashboard/v1/payout_methods': { kind: 'dashboard', action: 'payout_methods.read' },
  'POST /dashboard/v1/payout_methods': { kind: 'dashboard', action: 'payout_methods.write' },
  'POST /dashboard/v1/payout_methods/{id}/default': { kind: 'dashboard', action: 'payout_methods.write' },
  'GET /dashboard/v1/webhook_endpoints': { kind: 'dashboard', action: 'webhook_endpoints.read' },
  'POST /dashboard/v1/webhook_endpoints': { kind: 'dashboard', action: 'webhook_endpoints.write' },
  'PATCH /dashboard/v1/webhook_endpoints/{id}': { kind: 'dashboard', action: 'webhook_endpoints.write' },
  'DELETE /dashboard/v1/webhook_endpoints/{id}': { kind: 'dashboard', action: 'webhook_endpoints.write' },
  'GET /dashboard/v1/webhook_deliveries': { kind: 'dashboard', action: 'webhook_deliveries.read' },
  'GET /dashboard/v1/webhook_deliveries/{id}': { kind: 'dashboard', action: 'webhook_deliveries.read' },
  'POST /dashboard/v1/webhook_endpoints/{id}/test_event': { kind: 'dashboard', action: 'webhook_endpoints.write' },
  'GET /dashboard/v1/webhook_options': { kind: 'dashboard', action: 'webhook_endpoints.read' },
  'GET /dashboard/v1/payment_intents': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/payment_intents/{id}': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/payment_intents/{id}/attempts': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/payment_intents/{id}/events': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/payment_intents/{id}/disputes': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/payment_intents/{id}/refunds': { kind: 'dashboard', action: 'payments.read' },
  'POST /dashboard/v1/refunds': { kind: 'dashboard', action: 'refunds.write' },
  'GET /dashboard/v1/disputes': { kind: 'dashboard', action: 'disputes.read' },
  'GET /dashboard/v1/disputes/{id}': { kind: 'dashboard', action: 'disputes.read' },
  'POST /dashboard/v1/disputes/{id}/evidence': { kind: 'dashboard', action: 'disputes.write' },
  'GET /dashboard/v1/balance': { kind: 'dashboard', action: 'balance.read' },
  'GET /dashboard/v1/balance_transactions': { kind: 'dashboard', action: 'balance.read' },
  'GET /dashboard/v1/balance_transactions/{id}': { kind: 'dashboard', action: 'balance.read' },
  'GET /dashboard/v1/settlements': { kind: 'dashboard', action: 'settlements.read' },
  'GET /dashboard/v1/settlements/{id}': { kind: 'dashboard', action: 'settlements.read' },
  'POST /dashboard/v1/settlements': { kind: 'dashboard', action: 'settlements.write' },
  'GET /dashboard/v1/events': { kind: 'dashboard', action: 'events.read' },
  'GET /dashboard/v1/events/{id}': { kind: 'dashboard', action: 'events.read' },
  'POST /dashboard/v1/webhook_deliveries/{id}/resend': { kind: 'dashboard', action: 'webhook_deliveries.write' },
  'GET /dashboard/v1/exports/payment_intents.csv': { kind: 'dashboard', action: 'payments.read' },
  'GET /dashboard/v1/exports/settlements.csv': { kind: 'dashboard', action: 'settlements.read' },
  'GET /dashboard/v1/exports/balance_transactions.csv': { kind: 'dashboard', action: 'balance.read' },
};

/** Routes that belong to the operations surface (observability) and are open wherever they exist. */
const OPEN_PREFIXES = ['/health', '/metrics'];

/** The answer a credential gets, as `status code` (or `allowed`: anything but an authorization refusal, never a 5xx). */
type Expect = { status: number; code?: string } | 'allowed';
const UNAUTHENTICATED: Expect = { status: 401, code: 'authentication_required' };
const NOT_FOUND: Expect = { status: 404, code: 'resource_not_found' };
const LIVE_NOT_ENABLED: Expect = { status: 403, code: 'live_not_enabled' };
const TEST_MODE_REQUIRED: Expect = { status: 403, code: 'test_mode_required' };
const FORBIDDEN: Expect = { status: 403, code: 'forbidden' };
const INSUFFICIENT_PERMISSIONS: Expect = { status: 403, code: 'insufficient_permissions' };
const ROLES: readonly UserRole[] = ['owner', 'admin', 'developer', 'viewer'];

let t0: TestApp;
let shopA: TestMerchant;
let shopB: TestMerchant;
/** A's live key, minted after review. */
let liveKeyA: string;
/** A merchant whose live key exists but whose review no longer holds live mode open. */
let liveKeyBeforeReview: string;
/** A's objects in test mode and in live mode. */
const ids: Record<string, { test: string; live: string }> = {};
let checkoutToken: string;
let liveCheckoutToken: string;
const users: Partial<Record<UserRole, SignedInUser>> = {};
let ownerB: SignedInUser;
let targetUserId: string;
const dashboardIds = { apiKey: '', webhookEndpoint: '', event: '' };
/** A's restricted test keys: `only` one permission each (`refunds:read`), `allBut` every other resource with write. */
const restricted: { only: Partial<Record<ApiKeyPermission, string>>; allBut: Partial<Record<ApiKeyResource, string>> } = { only: {}, allBut: {} };

async function restrictedKey(merchantId: string, permissions: ApiKeyPermissions): Promise<string> {
  return (await t0.app.get(IssueApiKey).execute({ merchantId, mode: 'test', permissions })).secret;
}

test.before(async () => {
  t0 = await startTestApp();
  shopA = await t0.merchant();
  shopB = await t0.merchant();
  liveKeyA = await shopA.liveKey();
  // A settles on request, so "pay out now" gets past its schedule rule to the money (409 nothing_to_settle).
  await t0.app.get<MerchantRepository>(MerchantRepository).updateSettings(shopA.id, { settlementSchedule: 'manual' });
  const shopC = await t0.merchant();
  liveKeyBeforeReview = await shopC.liveKey();
  await t0.app.get<MerchantRepository>(MerchantRepository).setLiveEnabled(shopC.id, false);

  const checkout = checkoutClient(t0);
  const testSession = await checkout.createIntent(shopA.testKey);
  const liveSession = await checkout.createIntent(liveKeyA);
  checkoutToken = testSession.token;
  liveCheckoutToken = liveSession.token;
  ids.intent = { test: testSession.intent.id, live: liveSession.intent.id };

  // A dispute on a paid test intent; live disputes cannot be simulated, so a well-formed id stands in.
  const flow = paymentFlow(t0, shopA.testKey);
  const paid = await flow.createIntent();
  await flow.attempt(paid.id);
  await flow.simulate(paid.id, { outcome: 'succeeded' });
  await flow.simulate(paid.id, { outcome: 'dispute_opened' });
  const disputes = apiObjectsAt(await flow.get('/v1/disputes'), 'data');
  ids.dispute = { test: disputes[0]?.id ?? 'dp_0000000000000000000000', live: 'dp_1111111111111111111111' };
  ids.settlement = { test: 'st_AAAAAAAAAAAAAAAAAAAAAA', live: 'st_BBBBBBBBBBBBBBBBBBBBBB' };
  // A refund of another paid test intent; live refunds need a live payment, so a well-formed id stands in.
  const refunded = await flow.createIntent();
  await flow.attempt(refunded.id);
  await flow.simulate(refunded.id, { outcome: 'succeeded' });
  const refund = (await flow.post('/v1/refunds', { payment_intent: refunded.id, amount: 100 })).result;
  ids.refund = { test: textAt(refund, 'id'), live: 're_BBBBBBBBBBBBBBBBBBBBBBBBBB' };
  // A's newest test line (the refund's); A has no live money, so a well-formed id stands in.
  ids.balance_transaction = { test: apiObjectsAt(await flow.get('/v1/balance_transactions?limit=1'), 'data')[0]?.id ?? '', live: 'txn_999999999' };
  if (!ids.balance_transaction.test) throw new Error('setup: no balance transaction');

  for (const role of ROLES) users[role] = await signIn(t0, { merchantId: shopA.id, role });
  ownerB = await signIn(t0, { merchantId: shopB.id, role: 'owner' });
  targetUserId = (await signIn(t0, { merchantId: shopA.id, role: 'viewer' })).userId;
  const owner = { cookie: users.owner!.cookie };
  const keys = await t0.request({ method: 'GET', url: '/dashboard/v1/api_keys', headers: owner });
  const endpoint = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/webhook_endpoints?mode=test',
    headers: owner,
    payload: { url: 'https://hooks.example.com/payments' },
  });
  dashboardIds.apiKey = apiObjectsAt(objectAt(keys.result), 'data')[0].id;
  dashboardIds.event = apiObjectsAt(await flow.get('/v1/events'), 'data')[0]?.id ?? '';
  dashboardIds.webhookEndpoint = textAt(endpoint.result, 'id');
  // An event of A's live mode: canceling a live intent writes one.
  const liveFlow = paymentFlow(t0, liveKeyA);
  const canceled = await liveFlow.createIntent();
  await liveFlow.post(`/v1/payment_intents/${canceled.id}/cancel`, {});
  ids.event = { test: dashboardIds.event, live: apiObjectsAt(await liveFlow.get('/v1/events'), 'data')[0]?.id ?? '' };
  if (!ids.event.live) throw new Error('setup: no live event');
  if (!dashboardIds.apiKey || !dashboardIds.webhookEndpoint || !dashboardIds.event) throw new Error(`setup: ${keys.payload} ${endpoint.payload}`);
  for (const resource of API_KEY_RESOURCES) {
    for (const access of ['read', 'write'] as const) restricted.only[`${resource}:${access}`] = await restrictedKey(shopA.id, { [resource]: access });
    restricted.allBut[resource] = await restrictedKey(
      shopA.id,
      Object.fromEntries(API_KEY_RESOURCES.filter((other) => other !== resource).map((other) => [other, 'write'])),
    );
  }
});
test.after.always(async () => t0?.close());

function routesOfServer(): string[] {
  return t0.server
    .table()
    .map((route) => `${route.method.toUpperCase()} ${route.path}`)
    .sort();
}

function groupOf(route: string): Group | undefined {
  const path = route.split(' ')[1];
  return ROUTES[route] ?? (OPEN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? { kind: 'open' } : undefined);
}

/** Well-formed ids of objects nobody has, per scope: a key past authorization meets 404, and nothing of A's changes. */
const PHANTOM_IDS: Readonly<Record<Exclude<Extract<Group, { kind: 'v1' }>['scope'], 'collection'>, string>> = {
  intent: 'pi_0000000000000000000000',
  dispute: 'dp_0000000000000000000000',
  settlement: 'st_AAAAAAAAAAAAAAAAAAAAAA',
  refund: 're_AAAAAAAAAAAAAAAAAAAAAAAAAA',
  event: 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA',
  balance_transaction: 'txn_999999999',
};

/** A concrete URL for a route template, the ids pointing at A's objects of `mode` (or, `phantom`, at nobody's). */
function urlOf(route: string, mode: 'test' | 'live' = 'test', token = checkoutToken, real = false, phantom = false): string {
  const [, template] = route.split(' ');
  const group = groupOf(route);
  let url = template
    .replace('{token}', token)
    .replace('{file}', 'checkout.css')
    .replace('{order}', 'order-1')
    .replace('{channel}', 'simulator')
    .replace('{mode}', 'test');
  if (group?.kind === 'v1' && group.scope !== 'collection') url = url.replace('{id}', phantom ? PHANTOM_IDS[group.scope] : ids[group.scope][mode]);
  if (group?.kind === 'dashboard' && template.includes('{id}')) url = url.replace('{id}', dashboardIdOf(route, real));
  if (route === 'GET /v1/fx/quotes') url += '?from=THB&to=USD';
  // The routes marked *mode* take ?mode=test|live.
  if (
    group?.kind === 'dashboard' &&
    (/payout_methods/.test(route) ||
      /webhook_endpoints$/.test(route) ||
      route.includes('webhook_deliveries/{id}') ||
      /\/dashboard\/v1\/(payment_intents|refunds|disputes|balance|settlements|events)/.test(route))
  )
    url += '?mode=test';
  return url;
}

/** Well-formed ids nobody owns, or (real) A's own objects, for the dashboard routes with an {id}. */
function dashboardIdOf(route: string, real: boolean): string {
  if (route.includes('/users/')) return targetUserId;
  if (route.includes('/api_keys/')) return real ? dashboardIds.apiKey : 'ak_0000000000000000000000';
  if (route.includes('/webhook_endpoints/')) return real ? dashboardIds.webhookEndpoint : 'we_0000000000000000000000';
  if (route.includes('/payout_methods/')) return 'pd_0000000000000000000000';
  if (route.includes('/webhook_deliveries/')) return 'whd_AAAAAAAAAAAAAAAAAAAAAA';
  if (route.includes('/payment_intents/')) return real ? ids.intent?.test : 'pi_0000000000000000000000';
  if (route.includes('/disputes/')) return real ? ids.dispute?.test : 'dp_0000000000000000000000';
  if (route.includes('/settlements/')) return ids.settlement.test;
  if (route.includes('/events/')) return real ? dashboardIds.event : 'evt_AAAAAAAAAAAAAAAAAAAAAAAAAA';
  if (route.includes('/balance_transactions/')) return real ? ids.balance_transaction.test : 'txn_999999999';
  throw new Error(`no id for ${route}`);
}

function bodyOf(route: string): object | undefined {
  if (!route.startsWith('POST') && !route.startsWith('PATCH')) return undefined;
  if (route.includes('/simulate')) return { outcome: 'failed' };
  if (route.includes('/advance')) return { clock: 'expiry' };
  if (route.includes('/attempts') || route.endsWith('/pay')) return { payment_method: 'promptpay' };
  if (route.includes('/evidence')) return { evidence: { note: 'x' } };
  if (route === 'POST /v1/payment_intents') return { amount: 1000, currency: 'THB', merchant_order_id: unique('order') };
  return {};
}

async function send(
  route: string,
  credential: { authorization?: string; cookie?: string },
  mode: 'test' | 'live' = 'test',
  token?: string,
  real = false,
  body?: object,
  phantom = false,
): Promise<ServerInjectResponse> {
  const method = route.split(' ')[0];
  const payload = body ?? bodyOf(route);
  return t0.server.inject({
    method,
    url: urlOf(route, mode, token, real, phantom),
    headers: { ...(method === 'POST' ? { 'idempotency-key': unique('authz') } : {}), ...credential },
    ...(payload === undefined ? {} : { payload }),
  });
}

function check(mismatches: string[], label: string, res: ServerInjectResponse, expected: Expect): void {
  let code: unknown;
  try {
    code = jsonAt(JSON.parse(res.payload), 'error', 'code');
  } catch {
    code = undefined;
  }
  const got = `${res.statusCode} ${typeof code === 'string' ? code : ''}`.trim();
  if (res.statusCode >= 500) {
    mismatches.push(`${label}: ${got} (a 5xx) ${res.payload.slice(0, 200)}`);
  } else if (expected === 'allowed') {
    if (
      res.statusCode === 401 ||
      code === 'forbidden' ||
      code === 'live_not_enabled' ||
      code === 'authentication_required' ||
      code === 'insufficient_permissions'
    )
      mismatches.push(`${label}: expected allowed, got ${got}`);
  } else if (res.statusCode !== expected.status || (expected.code !== undefined && code !== expected.code)) {
    mismatches.push(`${label}: expected ${expected.status} ${expected.code ?? ''}, got ${got} ${res.payload.slice(0, 160)}`);
  }
}

test.serial('every route of the server has an expectation in the matrix', (t) => {
  const missing = routesOfServer().filter((route) => groupOf(route) === undefined);
  t.deepEqual(missing, [], `routes without an authorization expectation; add them to ROUTES: ${missing.join(', ')}`);
});

test.serial('/v1 routes: the credential decides, as the authentication rules say', async (t) => {
  const mismatches: string[] = [];
  const cookie = users.owner!.cookie;
  for (const route of routesOfServer()) {
    const group = groupOf(route);
    if (group?.kind !== 'v1') continue;
    const cases: Array<[string, { authorization?: string; cookie?: string }, Expect, ('test' | 'live')?]> = [
      ['no credential', {}, UNAUTHENTICATED],
      ['malformed Authorization', { authorization: 'Bearer' }, UNAUTHENTICATED],
      ['Basic scheme with a real key', { authorization: `Basic ${Buffer.from(`${shopA.testKey}:`).toString('base64')}` }, UNAUTHENTICATED],
      ['unknown test key', { authorization: `Bearer sk_test_${randomBytes(24).toString('hex')}` }, UNAUTHENTICATED],
      ['unknown live key', { authorization: `Bearer sk_live_${randomBytes(24).toString('hex')}` }, UNAUTHENTICATED],
      ['live key before review', { authorization: `Bearer ${liveKeyBeforeReview}` }, LIVE_NOT_ENABLED],
      ['checkout token as bearer', { authorization: `Bearer ${checkoutToken}` }, UNAUTHENTICATED],
      ...ROLES.map((role): [string, { cookie: string }, Expect] => [`dashboard cookie (${role})`, { cookie: users[role]!.cookie }, UNAUTHENTICATED]),
      ['dashboard session token as bearer', { authorization: `Bearer ${cookie.split('=')[1]}` }, UNAUTHENTICATED],
    ];
    if (group.scope !== 'collection') {
      cases.push(["other merchant's test key on A's test object", { authorization: `Bearer ${shopB.testKey}` }, NOT_FOUND]);
      // Test and live objects never see each other: an intent, event or balance transaction of one mode is 404 to a key of the other.
      if (group.scope === 'intent' || group.scope === 'event' || group.scope === 'balance_transaction') {
        cases.push(['test key on live data', { authorization: `Bearer ${shopA.testKey}` }, NOT_FOUND, 'live']);
        cases.push(['live key on test data', { authorization: `Bearer ${liveKeyA}` }, group.testOnly ? TEST_MODE_REQUIRED : NOT_FOUND, 'test']);
      }
    }
    if (group.testOnly) cases.push(['live key on its own live object', { authorization: `Bearer ${liveKeyA}` }, TEST_MODE_REQUIRED, 'live']);
    for (const [name, credential, expected, mode] of cases) check(mismatches, `${route} × ${name}`, await send(route, credential, mode), expected);
  }
  t.deepEqual(mismatches, []);
});

test.serial(
  '/v1 routes × restricted keys: exactly the permission a route needs passes, write includes read, any other is 403 insufficient_permissions',
  async (t) => {
    const mismatches: string[] = [];
    for (const route of routesOfServer()) {
      const group = groupOf(route);
      if (group?.kind !== 'v1') continue;
      const { resource, access } = parsePermission(group.permission);
      const key = (name: string | undefined) => ({ authorization: `Bearer ${name ?? 'missing'}` });
      const cases: Array<[string, { authorization: string }, Expect]> = [
        [`key with exactly ${group.permission}`, key(restricted.only[group.permission]), 'allowed'],
        [`key with every other resource (write), none of ${resource}`, key(restricted.allBut[resource]), INSUFFICIENT_PERMISSIONS],
      ];
      if (access === 'read') cases.push([`key with ${resource}:write`, key(restricted.only[`${resource}:write`]), 'allowed']);
      else cases.push([`key with ${resource}:read only`, key(restricted.only[`${resource}:read`]), INSUFFICIENT_PERMISSIONS]);
      for (const [name, credential, expected] of cases) {
        // At objects nobody has: a key let through meets 404 and changes nothing the other tests use.
        const res = await send(route, credential, 'test', undefined, false, undefined, true);
        check(mismatches, `${route} × ${name}`, res, expected);
        if (expected !== 'allowed' && res.statusCode === 403) {
          const error = objectAt(JSON.parse(res.payload), 'error');
          const needed = name.endsWith('read only') ? `${resource}:write` : group.permission;
          if (error.param !== needed || error.message !== `This key lacks the permission ${needed}.`) {
            mismatches.push(`${route} × ${name}: the refusal names ${String(error.param)}: ${String(error.message)}`);
          }
        }
      }
    }
    t.deepEqual(mismatches, []);
  },
);

test.serial(
  'a restricted key is refused before anything of the request is looked at: no Idempotency-Key, a body that is not JSON, and the key it sent stays free',
  async (t) => {
    const readOnly = restricted.only['refunds:read']!;
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/json' }]) {
      const res = await t0.server.inject({
        method: 'POST',
        url: '/v1/refunds',
        headers: { authorization: `Bearer ${readOnly}`, ...headers },
        payload: '{not json',
      });
      t.is(res.statusCode, 403, JSON.stringify(headers));
      t.is(jsonAt(JSON.parse(res.payload), 'error', 'code'), 'insufficient_permissions');
    }
    const idempotencyKey = unique('restricted');
    const body = { amount: 1000, currency: 'THB', merchant_order_id: unique('order') };
    const refused = await t0.server.inject({
      method: 'POST',
      url: '/v1/payment_intents',
      headers: { authorization: `Bearer ${readOnly}`, 'idempotency-key': idempotencyKey },
      payload: body,
    });
    t.is(refused.statusCode, 403);
    // The refusal claimed nothing: the same key with a key that may write is a first request, not a replay.
    const made = await t0.server.inject({
      method: 'POST',
      url: '/v1/payment_intents',
      headers: { authorization: `Bearer ${restricted.only['payment_intents:write']!}`, 'idempotency-key': idempotencyKey },
      payload: body,
    });
    t.is(made.statusCode, 201, made.payload);
    t.is(made.headers['idempotent-replayed'], undefined);
  },
);

test.serial(
  'a developer mints live keys only within the role: no live secret key, no live refunds or settlements write; a live key with payment_intents write works and cannot refund',
  async (t) => {
    const developer = { cookie: users.developer!.cookie };
    const mint = (payload: object) => t0.request({ method: 'POST', url: '/dashboard/v1/api_keys', headers: developer, payload });
    const before = apiObjectsAt(objectAt((await t0.request({ method: 'GET', url: '/dashboard/v1/api_keys', headers: developer })).result), 'data').length;
    for (const [payload, param] of [
      [{ mode: 'live' }, 'permissions'],
      [{ mode: 'live', permissions: { refunds: 'write' } }, 'permissions.refunds'],
      [{ mode: 'live', permissions: { payment_intents: 'write', settlements: 'write' } }, 'permissions.settlements'],
      [{ mode: 'live', permissions: { disputes: 'write' } }, 'permissions.disputes'],
    ] as const) {
      const res = await mint(payload);
      t.is(res.statusCode, 403, JSON.stringify(payload));
      t.like(objectAt(res.result, 'error'), { code: 'insufficient_permissions', param }, JSON.stringify(payload));
    }
    t.is(
      apiObjectsAt(objectAt((await t0.request({ method: 'GET', url: '/dashboard/v1/api_keys', headers: developer })).result), 'data').length,
      before,
      'nothing minted',
    );

    // Within the role: reads of refunds and settlements, payment intents write; and test keys of any kind, a secret one included.
    for (const payload of [{ mode: 'test' }, { mode: 'test', permissions: { refunds: 'write', settlements: 'write' } }])
      t.is((await mint(payload)).statusCode, 201);
    const res = await mint({
      mode: 'live',
      name: 'Checkout',
      permissions: { payment_intents: 'write', refunds: 'read', settlements: 'read', balance: 'read' },
    });
    t.is(res.statusCode, 201, res.payload);
    const secret = textAt(res.result, 'secret');
    t.regex(secret, /^rk_live_/);
    const live = paymentFlow(t0, secret);
    const intent = await live.createIntent();
    t.is(intent.id.slice(0, 3), 'pi_');
    t.is((await t0.request({ method: 'GET', url: '/v1/refunds', key: secret })).statusCode, 200);
    const refund = await t0.request({
      method: 'POST',
      url: '/v1/refunds',
      key: secret,
      idempotencyKey: unique('refund'),
      payload: { payment_intent: intent.id },
    });
    t.is(refund.statusCode, 403);
    t.like(objectAt(refund.result, 'error'), {
      code: 'insufficient_permissions',
      param: 'refunds:write',
      message: 'This key lacks the permission refunds:write.',
    });
    const payout = await t0.request({ method: 'POST', url: '/v1/settlements', key: secret, idempotencyKey: unique('payout'), payload: {} });
    t.like(objectAt(payout.result, 'error'), { code: 'insufficient_permissions', param: 'settlements:write' });

    // An owner and an admin mint anything.
    for (const role of ['owner', 'admin'] as const) {
      const owner = { cookie: users[role]!.cookie };
      for (const payload of [{ mode: 'live' }, { mode: 'live', permissions: { refunds: 'write', settlements: 'write', disputes: 'write' } }]) {
        t.is(
          (await t0.request({ method: 'POST', url: '/dashboard/v1/api_keys', headers: owner, payload })).statusCode,
          201,
          `${role} ${JSON.stringify(payload)}`,
        );
      }
    }
  },
);

test.serial('/dashboard/v1 routes: the cookie and the role table decide; an API key or a checkout token is no credential', async (t) => {
  const mismatches: string[] = [];
  for (const route of routesOfServer()) {
    const group = groupOf(route);
    if (group?.kind !== 'dashboard') continue;
    const cases: Array<[string, { authorization?: string; cookie?: string }, Expect]> = [
      ['no credential', {}, UNAUTHENTICATED],
      ['API key as bearer', { authorization: `Bearer ${shopA.testKey}` }, UNAUTHENTICATED],
      ['live API key as bearer', { authorization: `Bearer ${liveKeyA}` }, UNAUTHENTICATED],
      ['API key as the cookie', { cookie: `dashboard_session=${shopA.testKey}` }, UNAUTHENTICATED],
      ['checkout token as bearer', { authorization: `Bearer ${checkoutToken}` }, UNAUTHENTICATED],
      ['checkout token as the cookie', { cookie: `dashboard_session=${checkoutToken}` }, UNAUTHENTICATED],
      ['unknown session cookie', { cookie: `dashboard_session=${randomBytes(32).toString('base64url')}` }, UNAUTHENTICATED],
    ];
    // Signing out ends the session it is sent with, so DELETE /session gets a fresh user of each role.
    for (const role of ROLES) {
      const user = route === 'DELETE /dashboard/v1/session' ? await signIn(t0, { merchantId: shopA.id, role }) : users[role]!;
      cases.push([`${role} cookie`, { cookie: user.cookie }, mayPerform(role, group.action) ? 'allowed' : FORBIDDEN]);
    }
    for (const [name, credential, expected] of cases) check(mismatches, `${route} × ${name}`, await send(route, credential), expected);
    // Another merchant's object is 404, never 403 (A's own key, endpoint and user where the test has one).
    // (With a fresh one-time code where the route steps up: the code is checked before the lookup.)
    if (route.includes('{id}')) {
      const body = route.includes('/default') ? { code: totpCode(t0, ownerB.totpSecret, 1) } : undefined;
      check(
        mismatches,
        `${route} × another merchant's owner on A's object`,
        await send(route, { cookie: ownerB.cookie }, 'test', undefined, true, body),
        NOT_FOUND,
      );
    }
  }
  t.deepEqual(mismatches, []);
});

test.serial('hosted checkout: the token in the path is the whole authority; no key or cookie opens a session', async (t) => {
  const mismatches: string[] = [];
  for (const route of routesOfServer()) {
    if (groupOf(route)?.kind !== 'checkout') continue;
    const credentials: Array<[string, { authorization?: string; cookie?: string }]> = [
      ['no credential', {}],
      ['API key', { authorization: `Bearer ${shopA.testKey}` }],
      ['live API key', { authorization: `Bearer ${liveKeyA}` }],
      ['owner cookie', { cookie: users.owner!.cookie }],
    ];
    for (const [name, credential] of credentials) {
      // An unknown token is a missing session whatever credential comes with it (a fresh one each time: each token has its own rate limit).
      const missing = await send(route, credential, 'test', randomBytes(32).toString('base64url'));
      if (missing.statusCode !== 404) mismatches.push(`${route} × ${name} × unknown token: expected 404, got ${missing.statusCode}`);
      if (missing.statusCode >= 500) mismatches.push(`${route} × ${name} × unknown token: a 5xx`);
    }
    // The token alone opens the session (except simulate of a live session, answered like a missing one).
    if (route.includes('/simulate')) {
      const live = await send(route, {}, 'test', liveCheckoutToken);
      if (live.statusCode !== 404) mismatches.push(`${route} × live session token: expected 404, got ${live.statusCode}`);
    } else {
      const ok = await send(route, {}, 'test', checkoutToken);
      if (ok.statusCode !== 200) mismatches.push(`${route} × its token, no credential: expected 200, got ${ok.statusCode} ${ok.payload.slice(0, 160)}`);
    }
  }
  t.deepEqual(mismatches, []);
});

test.serial('open routes need no credential and refuse none with 401/403', async (t) => {
  const mismatches: string[] = [];
  for (const route of routesOfServer()) {
    if (groupOf(route)?.kind !== 'open') continue;
    for (const [name, credential] of [
      ['no credential', {}],
      ['API key', { authorization: `Bearer ${shopA.testKey}` }],
      ['owner cookie', { cookie: users.owner!.cookie }],
    ] as const) {
      const res = await send(route, credential);
      if (res.statusCode >= 500) mismatches.push(`${route} × ${name}: a 5xx ${res.statusCode}`);
      // The sign-in and MFA claim answer 401 invalid_credentials to a bad body; that is not an authorization refusal.
      const code = res.payload.includes('"code"') ? jsonAt(JSON.parse(res.payload), 'error', 'code') : undefined;
      if (code === 'authentication_required' || code === 'forbidden') mismatches.push(`${route} × ${name}: ${res.statusCode} ${code}`);
    }
  }
  t.deepEqual(mismatches, []);
});
