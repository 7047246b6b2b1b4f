import test from 'ava';
import { asUser, errorOf, signIn, type SignedInUser } from './helpers/dashboard';
import { objectAt } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

/*
 * A dashboard write sent from another site's page (its Origin is not the service's) is refused
 * before anything is read or changed; the service's own origin and requests without Origin (curl,
 * scripts) go on. The test app's base URL is https://pay.example.test.
 */

let t0: TestApp;
let shop: TestMerchant;
let owner: SignedInUser;
withAppAndMerchant({}, async (started) => {
  ({ t0, shop } = started);
  owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
});

const OWN = 'https://pay.example.test';
const FOREIGN = ['https://evil.example', 'null', 'http://pay.example.test', 'https://pay.example.test:8443', 'https://pay.example.test.evil.example'];

const patchSettings = (origin: string | undefined, name: string) =>
  asUser(t0, owner, { method: 'PATCH', url: '/dashboard/v1/settings', payload: { business_name: name }, headers: origin === undefined ? {} : { origin } });
const businessName = async (): Promise<unknown> => objectAt((await asUser(t0, owner, { method: 'GET', url: '/dashboard/v1/settings' })).result).business_name;

test.serial('a write with a foreign Origin is 403 forbidden and changes nothing; the own origin and no Origin are taken', async (t) => {
  for (const origin of FOREIGN) {
    const refused = await patchSettings(origin, `Renamed from ${origin}`);
    t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 403, code: 'forbidden' }, origin);
    t.regex(String(errorOf(refused).message), /another site/);
    t.truthy(errorOf(refused).request_id);
  }
  t.notRegex(String(await businessName()), /Renamed/);
  t.is((await patchSettings(OWN, 'From the dashboard')).statusCode, 200);
  t.is(await businessName(), 'From the dashboard');
  t.is((await patchSettings(undefined, 'From a script')).statusCode, 200);
  t.is(await businessName(), 'From a script');
});

test.serial("the origin of the address the request was sent to is the service's own too (the console opened at 127.0.0.1)", async (t) => {
  const sent = await asUser(t0, owner, {
    method: 'PATCH',
    url: '/dashboard/v1/settings',
    payload: { business_name: 'From 127.0.0.1' },
    headers: { host: '127.0.0.1:4300', origin: 'http://127.0.0.1:4300' },
  });
  t.is(sent.statusCode, 200);
  t.is(await businessName(), 'From 127.0.0.1');
  // Another host in Origin than the one addressed is still another site.
  const refused = await asUser(t0, owner, {
    method: 'PATCH',
    url: '/dashboard/v1/settings',
    payload: { business_name: 'From elsewhere' },
    headers: { host: '127.0.0.1:4300', origin: 'http://127.0.0.1:4301' },
  });
  t.is(refused.statusCode, 403);
  t.is(await businessName(), 'From 127.0.0.1');
});

test.serial('it comes before everything: the session, the role table, the body and the route itself', async (t) => {
  const headers = { origin: 'https://evil.example' };
  const cases: Array<{ method: string; url: string; payload?: unknown; headers: Record<string, string> }> = [
    // No cookie at all: still 403, not 401.
    { method: 'POST', url: '/dashboard/v1/refunds?mode=test', payload: { payment_intent: 'pi_x' }, headers },
    // A sign-in (no session yet) with the right password would set a cookie: refused too.
    { method: 'POST', url: '/dashboard/v1/session', payload: { email: owner.email, password: owner.password, code: '000000' }, headers },
    { method: 'DELETE', url: '/dashboard/v1/session', headers: { ...headers, cookie: owner.cookie } },
    { method: 'POST', url: '/dashboard/v1/api_keys', payload: 'not json', headers: { ...headers, cookie: owner.cookie } },
    { method: 'POST', url: '/dashboard/v1/no_such_route', payload: {}, headers },
  ];
  for (const req of cases) {
    const res = await t0.request(req);
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 403, code: 'forbidden' }, `${req.method} ${req.url}`);
  }
  t.is((await asUser(t0, owner, { method: 'GET', url: '/dashboard/v1/session' })).statusCode, 200, 'the session was not ended');
});

test.serial('reads, and writes outside /dashboard, are not its business', async (t) => {
  const read = await asUser(t0, owner, { method: 'GET', url: '/dashboard/v1/settings', headers: { origin: 'https://evil.example' } });
  t.is(read.statusCode, 200);
  const api = await t0.request({
    method: 'POST',
    url: '/v1/payment_intents',
    key: shop.testKey,
    idempotencyKey: 'origin-1',
    headers: { origin: 'https://evil.example' },
    payload: { amount: 1000, currency: 'THB', merchant_order_id: 'origin-1' },
  });
  t.is(api.statusCode, 201, 'the merchant API is called by servers, with keys, not cookies');
});
