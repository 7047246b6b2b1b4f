import test from 'ava';
import { asUser, signIn, type SignedInUser } from './helpers/dashboard';
import { createBody, startTestApp, unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { apiObjectAt, apiObjectsAt, objectAt, textAt, type ApiObject } from './helpers/json';

/*
 * GET /dashboard/v1/webhook_deliveries is not a mode route: `endpoint` alone names the
 * deliveries to list (an endpoint has one mode), `mode` is an optional filter, and with neither
 * the list has both modes, each delivery naming its mode. Nor is the resend of one delivery.
 */

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(async () => t0?.close());

const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });

async function endpoint(user: SignedInUser, mode: 'test' | 'live'): Promise<ApiObject> {
  const res = await as(user, 'POST', `/dashboard/v1/webhook_endpoints?mode=${mode}`, { url: `https://hooks-${unique()}.example.com/in` });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.payload}`);
  return apiObjectAt(res.result);
}

/** Creates and cancels an intent with `key`: one event, so one delivery per endpoint of its mode. */
async function cancelIntent(key: string): Promise<void> {
  const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: unique(), payload: createBody() });
  const id = textAt(created.result, 'id');
  await t0.request({ method: 'POST', url: `/v1/payment_intents/${id}/cancel`, key, idempotencyKey: unique() });
}

async function accountWithBothModes(): Promise<{ shop: TestMerchant; user: SignedInUser; testEndpoint: ApiObject; liveEndpoint: ApiObject }> {
  const shop = await t0.merchant();
  const liveKey = await shop.liveKey();
  const user = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  const testEndpoint = await endpoint(user, 'test');
  const liveEndpoint = await endpoint(user, 'live');
  await cancelIntent(shop.testKey);
  await cancelIntent(liveKey);
  await cancelIntent(shop.testKey);
  return { shop, user, testEndpoint, liveEndpoint };
}

const listed = async (user: SignedInUser, query: string): Promise<ApiObject[]> => {
  const res = await as(user, 'GET', `/dashboard/v1/webhook_deliveries${query}`);
  if (res.statusCode !== 200) throw new Error(`list answered ${res.statusCode}: ${res.payload}`);
  return apiObjectsAt(res.result, 'data');
};

test("with endpoint and no mode: that endpoint's deliveries, whatever its mode", async (t) => {
  const { user, testEndpoint, liveEndpoint } = await accountWithBothModes();
  const live = await listed(user, `?endpoint=${liveEndpoint.id}`);
  t.is(live.length, 1, 'one live cancel');
  t.like(live[0], { object: 'webhook_delivery', endpoint: liveEndpoint.id, mode: 'live' });
  const testOnes = await listed(user, `?endpoint=${testEndpoint.id}`);
  t.is(testOnes.length, 2, 'two test cancels');
  t.true(testOnes.every((delivery) => delivery.endpoint === testEndpoint.id && delivery.mode === 'test'));
  // mode stays a filter: the live endpoint has no test deliveries.
  t.deepEqual(await listed(user, `?endpoint=${liveEndpoint.id}&mode=test`), []);
  t.deepEqual(
    (await listed(user, `?endpoint=${liveEndpoint.id}&mode=live`)).map((d) => d.id),
    live.map((d) => d.id),
  );
});

test('with neither: both modes, newest first, each naming its mode; resend with that mode as a filter', async (t) => {
  const { user } = await accountWithBothModes();
  const all = await listed(user, '?limit=100');
  t.deepEqual([...new Set(all.map((delivery) => delivery.mode))].sort(), ['live', 'test']);
  t.deepEqual(
    all.map((d) => d.created),
    [...all.map((d) => d.created)].sort().reverse(),
    'newest first',
  );
  t.deepEqual(
    (await listed(user, '?mode=live&limit=100')).map((d) => d.id),
    all.filter((d) => d.mode === 'live').map((d) => d.id),
  );
  t.deepEqual(
    (await listed(user, '?mode=test&limit=100')).map((d) => d.id),
    all.filter((d) => d.mode === 'test').map((d) => d.id),
  );
  // Paging across both modes.
  const firstPage = objectAt((await as(user, 'GET', '/dashboard/v1/webhook_deliveries?limit=2')).result);
  t.true(firstPage.has_more);
  const next = await listed(user, `?limit=100&starting_after=${apiObjectsAt(firstPage, 'data')[1].id}`);
  t.deepEqual(
    next.map((d) => d.id),
    all.slice(2).map((d) => d.id),
  );

  const liveDelivery = all.find((d) => d.mode === 'live')!;
  t.is((await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${liveDelivery.id}/resend?mode=live`)).statusCode, 202);
});

test("resend is not a mode route: without mode it re-arms the delivery of either mode; a mode filter or another merchant's delivery is 404", async (t) => {
  const { user } = await accountWithBothModes();
  const all = await listed(user, '?limit=100');
  for (const mode of ['live', 'test'] as const) {
    const delivery = all.find((d) => d.mode === mode)!;
    const res = await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${delivery.id}/resend`);
    t.is(res.statusCode, 202, `${mode}: ${res.payload}`);
    t.like(res.result, { id: delivery.id, object: 'webhook_delivery', mode, status: 'pending' });
    const other = mode === 'live' ? 'test' : 'live';
    const filtered = await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${delivery.id}/resend?mode=${other}`);
    t.is(filtered.statusCode, 404, `${mode} delivery under ?mode=${other}`);
    t.like(filtered.result, { error: { code: 'resource_not_found' } });
  }
  const stranger = await signIn(t0, { merchantId: (await t0.merchant()).id, role: 'owner' });
  t.is((await as(stranger, 'POST', `/dashboard/v1/webhook_deliveries/${all[0].id}/resend`)).statusCode, 404);
  const bad = await as(user, 'POST', `/dashboard/v1/webhook_deliveries/${all[0].id}/resend?mode=prod`);
  t.is(bad.statusCode, 400);
  t.like(bad.result, { error: { code: 'invalid_parameter', param: 'mode' } });
});

test("another merchant's endpoint lists nothing; a bad mode or endpoint id is 400", async (t) => {
  const { liveEndpoint } = await accountWithBothModes();
  const stranger = await signIn(t0, { merchantId: (await t0.merchant()).id, role: 'owner' });
  t.deepEqual(await listed(stranger, `?endpoint=${liveEndpoint.id}`), []);
  t.deepEqual(await listed(stranger, ''), []);
  for (const [query, param] of [
    ['?mode=prod', 'mode'],
    ['?endpoint=not-an-endpoint', 'endpoint'],
  ] as const) {
    const res = await as(stranger, 'GET', `/dashboard/v1/webhook_deliveries${query}`);
    t.is(res.statusCode, 400, query);
    t.like(res.result, { error: { code: 'invalid_parameter', param } });
  }
});
