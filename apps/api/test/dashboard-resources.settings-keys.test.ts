import { generateKeyPairSync, randomBytes } from 'node:crypto';
import test from 'ava';
import { AuditLog, CryptoEd25519KeyCheckForTests } from './helpers/dashboard-resources';
import { asUser, errorOf, signIn, type SignedInUser } from './helpers/dashboard';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { apiObjectAt, apiObjectsAt, objectAt, textAt } from './helpers/json';

let t0: TestApp;
let shop: TestMerchant;
let owner: SignedInUser;
withAppAndMerchant({}, async (started) => {
  ({ t0, shop } = started);
  owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
});

const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });

function ed25519PublicKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  return Buffer.from(textAt(publicKey.export({ format: 'jwk' }), 'x'), 'base64url').toString('base64');
}

// ── Settings ────────────────────────────────────────────────────────────────────────────────

test('settings show the four editable fields and the operator-set facts', async (t) => {
  const merchant = await t0.merchant();
  const user = await signIn(t0, { merchantId: merchant.id, role: 'viewer' });
  const res = await as(user, 'GET', '/dashboard/v1/settings');
  t.is(res.statusCode, 200);
  const body = objectAt(res.result);
  t.like(body, {
    object: 'merchant_settings',
    id: merchant.id,
    settlement_schedule: 'daily',
    status: 'active',
    kyb_status: 'pending',
    live_enabled: false,
    settlement_currency: 'THB',
    settlement_delay_days: 2,
  });
  t.regex(String(body.business_name), /^Shop /);
  // The four editable fields are always there, null when unset.
  t.is(body.support_email, null);
  t.is(body.statement_descriptor, null);
});

test('PATCH settings changes the four fields, answers the settings, and is audited', async (t) => {
  const merchant = await t0.merchant();
  const user = await signIn(t0, { merchantId: merchant.id, role: 'admin' });
  const res = await as(user, 'PATCH', '/dashboard/v1/settings', {
    business_name: 'Siam Coffee Roasters',
    support_email: 'help@siam.example',
    statement_descriptor: 'SIAM COFFEE',
    settlement_schedule: 'manual',
  });
  t.is(res.statusCode, 200);
  t.like(res.result, {
    business_name: 'Siam Coffee Roasters',
    support_email: 'help@siam.example',
    statement_descriptor: 'SIAM COFFEE',
    settlement_schedule: 'manual',
    settlement_currency: 'THB',
  });
  t.deepEqual((await as(user, 'GET', '/dashboard/v1/settings')).result, res.result);
  const cleared = await as(user, 'PATCH', '/dashboard/v1/settings', { support_email: null });
  t.like(cleared.result, { support_email: null, statement_descriptor: 'SIAM COFFEE' });
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { userId: user.userId, action: 'settings.write', objectType: 'merchant_settings', details: { fields: 'support_email' } });
});

test('no field reaches status, KYB status, settlement currency or delay: each is 400 naming it', async (t) => {
  const merchant = await t0.merchant();
  const user = await signIn(t0, { merchantId: merchant.id, role: 'owner' });
  const before = (await as(user, 'GET', '/dashboard/v1/settings')).result;
  for (const [field, value] of [
    ['status', 'disabled'],
    ['kyb_status', 'approved'],
    ['live_enabled', true],
    ['settlement_currency', 'USD'],
    ['settlement_delay_days', 0],
    ['id', 'mch_other'],
    ['name', 'x'],
  ] as const) {
    const res = await as(user, 'PATCH', '/dashboard/v1/settings', { business_name: 'Changed', [field]: value });
    t.is(res.statusCode, 400, field);
    t.like(errorOf(res), { code: 'invalid_parameter', param: field }, field);
  }
  for (const [field, value] of [
    ['business_name', ''],
    ['support_email', 'nope'],
    ['statement_descriptor', 'x'],
    ['settlement_schedule', 'hourly'],
    ['settlement_schedule', 1],
  ] as const) {
    const res = await as(user, 'PATCH', '/dashboard/v1/settings', { [field]: value });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, param: field }, `${field}=${String(value)}`);
  }
  t.deepEqual((await as(user, 'GET', '/dashboard/v1/settings')).result, before);
});

test('the role table guards settings: viewers and developers read, only owners and admins write', async (t) => {
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const developer = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  for (const user of [viewer, developer]) {
    t.is((await as(user, 'GET', '/dashboard/v1/settings')).statusCode, 200);
    const res = await as(user, 'PATCH', '/dashboard/v1/settings', { business_name: 'Mine now' });
    t.is(res.statusCode, 403);
    t.is(errorOf(res).code, 'forbidden');
  }
});

test('resource routes take the session cookie only: none, or an API key, is 401', async (t) => {
  for (const [method, url] of [
    ['GET', '/dashboard/v1/settings'],
    ['GET', '/dashboard/v1/api_keys'],
    ['POST', '/dashboard/v1/signing_keys'],
    ['GET', '/dashboard/v1/payout_methods?mode=test'],
    ['DELETE', '/dashboard/v1/webhook_endpoints/we_abc'],
  ] as const) {
    const res = await t0.request({ method, url, key: shop.testKey, ...(method === 'POST' ? { payload: {} } : {}) });
    t.is(res.statusCode, 401, url);
    t.is(errorOf(res).code, 'authentication_required');
  }
});

// ── API keys ────────────────────────────────────────────────────────────────────────────────

test('a new key is shown once, works on /v1 at once, and is listed by prefix only', async (t) => {
  const merchant = await t0.merchant();
  const developer = await signIn(t0, { merchantId: merchant.id, role: 'developer' });
  const res = await as(developer, 'POST', '/dashboard/v1/api_keys', { mode: 'test', name: 'CI' });
  t.is(res.statusCode, 201);
  const created = apiObjectAt(res.result);
  const secret = textAt(created, 'secret');
  t.like(created, { object: 'api_key', mode: 'test', name: 'CI', kind: 'secret', permissions: null });
  t.regex(secret, /^sk_test_[0-9A-Za-z]{32}$/);
  t.is(created.prefix, secret.slice(0, 16));
  t.is((await t0.request({ method: 'GET', url: '/v1/payment_intents', key: secret })).statusCode, 200);

  const list = await as(developer, 'GET', '/dashboard/v1/api_keys');
  t.is(list.statusCode, 200);
  t.like(list.result, { object: 'list', has_more: false });
  const data = apiObjectsAt(list.result, 'data');
  t.is(data.length, 2, 'the onboarding key and the new one');
  t.is(data[0]?.id, created.id, 'newest first');
  t.false(list.payload.includes(secret));
  t.false(list.payload.includes(merchant.testKey));
  for (const key of data) t.false('secret' in key || 'secret_digest' in key);
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { action: 'api_keys.write', objectId: created.id, userId: developer.userId, details: { change: 'created' } });
  t.false(JSON.stringify(entry).includes(secret));
});

test('a live key is 403 live_not_enabled until review opens live mode', async (t) => {
  const merchant = await t0.merchant();
  const user = await signIn(t0, { merchantId: merchant.id, role: 'admin' });
  const refused = await as(user, 'POST', '/dashboard/v1/api_keys', { mode: 'live' });
  t.is(refused.statusCode, 403);
  t.is(errorOf(refused).code, 'live_not_enabled');
  await merchant.liveKey();
  const minted = await as(user, 'POST', '/dashboard/v1/api_keys', { mode: 'live' });
  t.is(minted.statusCode, 201);
  t.regex(textAt(minted.result, 'secret'), /^sk_live_/);
});

test('a restricted key is rk_, reaches only what it names (403 insufficient_permissions naming the permission), and is listed with its permissions', async (t) => {
  const merchant = await t0.merchant();
  const developer = await signIn(t0, { merchantId: merchant.id, role: 'developer' });
  const res = await as(developer, 'POST', '/dashboard/v1/api_keys', {
    mode: 'test',
    name: 'Reporting',
    permissions: { balance: 'read', payment_intents: 'write' },
  });
  t.is(res.statusCode, 201);
  const created = apiObjectAt(res.result);
  const secret = textAt(created, 'secret');
  t.regex(secret, /^rk_test_[0-9A-Za-z]{32}$/);
  t.is(created.prefix, secret.slice(0, 16));
  t.like(created, { kind: 'restricted', permissions: { payment_intents: 'write', balance: 'read' } });
  t.is((await t0.request({ method: 'GET', url: '/v1/balance', key: secret })).statusCode, 200);
  t.is((await t0.request({ method: 'GET', url: '/v1/payment_intents', key: secret })).statusCode, 200);
  const refused = await t0.request({ method: 'GET', url: '/v1/refunds', key: secret });
  t.is(refused.statusCode, 403);
  t.deepEqual(
    { ...errorOf(refused), request_id: undefined },
    { code: 'insufficient_permissions', message: 'This key lacks the permission refunds:read.', param: 'refunds:read', request_id: undefined },
  );

  const listed = apiObjectsAt((await as(developer, 'GET', '/dashboard/v1/api_keys')).result, 'data');
  t.like(listed[0], { id: created.id, kind: 'restricted', permissions: { payment_intents: 'write', balance: 'read' } });
  t.like(listed[1], { kind: 'secret', permissions: null });
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { details: { change: 'created', kind: 'restricted', permissions: 'payment_intents:write balance:read' } });
});

test('permissions name known resources, each read or write, at least one: anything else is 400 naming the field', async (t) => {
  for (const [permissions, param] of [
    [{}, 'permissions'],
    [{ payouts: 'read' }, 'permissions.payouts'],
    [{ refunds: 'admin' }, 'permissions.refunds'],
    [{ refunds: true }, 'permissions.refunds'],
    [['refunds:read'], 'permissions'],
    ['refunds', 'permissions'],
    [null, 'permissions'],
  ] as const) {
    const res = await as(owner, 'POST', '/dashboard/v1/api_keys', { mode: 'test', permissions });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, code: 'invalid_parameter', param }, JSON.stringify(permissions));
  }
});

test('a key body takes mode, name and permissions only', async (t) => {
  for (const [payload, param] of [
    [{}, 'mode'],
    [{ mode: 'prod' }, 'mode'],
    [{ mode: 'test', name: 7 }, 'name'],
    [{ mode: 'test', name: '' }, 'name'],
    [{ mode: 'test', scopes: ['all'] }, 'scopes'],
  ] as const) {
    const res = await as(owner, 'POST', '/dashboard/v1/api_keys', payload);
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, code: 'invalid_parameter', param }, JSON.stringify(payload));
  }
});

test('revoking a key stops it on /v1 at once and takes it off the list; a second revoke answers it unchanged', async (t) => {
  const merchant = await t0.merchant();
  const admin = await signIn(t0, { merchantId: merchant.id, role: 'admin' });
  const minted = apiObjectAt((await as(admin, 'POST', '/dashboard/v1/api_keys', { mode: 'test' })).result);
  const { id } = minted;
  const secret = textAt(minted, 'secret');
  t.is((await t0.request({ method: 'GET', url: '/v1/payment_intents', key: secret })).statusCode, 200);

  const res = await as(admin, 'POST', `/dashboard/v1/api_keys/${id}/revoke`);
  t.is(res.statusCode, 200);
  const revoked = objectAt(res.result);
  t.like(revoked, { id, object: 'api_key' });
  t.truthy(revoked.revoked_at);
  t.false('secret' in revoked);

  const refused = await t0.request({ method: 'GET', url: '/v1/payment_intents', key: secret });
  t.is(refused.statusCode, 401);
  t.is(errorOf(refused).code, 'authentication_required');
  t.false(apiObjectsAt((await as(admin, 'GET', '/dashboard/v1/api_keys')).result, 'data').some((key) => key.id === id));
  t.like((await as(admin, 'POST', `/dashboard/v1/api_keys/${id}/revoke`, {})).result, { id, revoked_at: revoked.revoked_at });
  // The merchant's other key is untouched.
  t.is((await t0.request({ method: 'GET', url: '/v1/payment_intents', key: merchant.testKey })).statusCode, 200);
});

test("another merchant's key is 404 to revoke and keeps working; a malformed id is 400", async (t) => {
  const other = await t0.merchant();
  const otherAdmin = await signIn(t0, { merchantId: other.id, role: 'admin' });
  const minted = apiObjectAt((await as(otherAdmin, 'POST', '/dashboard/v1/api_keys', { mode: 'test' })).result);
  const { id } = minted;
  const secret = textAt(minted, 'secret');
  const res = await as(owner, 'POST', `/dashboard/v1/api_keys/${id}/revoke`);
  t.is(res.statusCode, 404);
  t.is(errorOf(res).code, 'resource_not_found');
  t.is((await t0.request({ method: 'GET', url: '/v1/payment_intents', key: secret })).statusCode, 200);
  t.false(apiObjectsAt((await as(owner, 'GET', '/dashboard/v1/api_keys')).result, 'data').some((key) => key.id === id));
  const malformed = await as(owner, 'POST', '/dashboard/v1/api_keys/sk_test_abc/revoke');
  t.like({ status: malformed.statusCode, ...errorOf(malformed) }, { status: 400, param: 'id' });
  t.false(malformed.payload.includes('sk_test_abc'));
});

test('viewers cannot mint or revoke keys', async (t) => {
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  t.is((await as(viewer, 'GET', '/dashboard/v1/api_keys')).statusCode, 200);
  t.is((await as(viewer, 'POST', '/dashboard/v1/api_keys', { mode: 'test' })).statusCode, 403);
  const { id } = apiObjectAt((await as(owner, 'POST', '/dashboard/v1/api_keys', { mode: 'test' })).result);
  t.is((await as(viewer, 'POST', `/dashboard/v1/api_keys/${id}/revoke`)).statusCode, 403);
});

// ── Signing keys ────────────────────────────────────────────────────────────────────────────

test('an Ed25519 public key registers (201) and is listed; the same key again is 409', async (t) => {
  const merchant = await t0.merchant();
  const developer = await signIn(t0, { merchantId: merchant.id, role: 'developer' });
  const publicKey = ed25519PublicKey();
  const res = await as(developer, 'POST', '/dashboard/v1/signing_keys', { public_key: publicKey, name: 'deploy bot' });
  t.is(res.statusCode, 201);
  t.like(res.result, { object: 'signing_key', algorithm: 'ed25519', public_key: publicKey, name: 'deploy bot' });
  const id = apiObjectAt(res.result).id;
  t.regex(id, /^sgk_/);
  const list = await as(developer, 'GET', '/dashboard/v1/signing_keys');
  t.like(list.result, { object: 'list', has_more: false });
  t.deepEqual(
    apiObjectsAt(list.result, 'data').map((key) => key.id),
    [id],
  );
  const again = await as(developer, 'POST', '/dashboard/v1/signing_keys', { public_key: publicKey });
  t.like({ status: again.statusCode, ...errorOf(again) }, { status: 409, code: 'signing_key_exists' });
  t.is(
    apiObjectsAt((await as(owner, 'GET', '/dashboard/v1/signing_keys')).result, 'data').filter((key) => apiObjectAt(key).id === id).length,
    0,
    'another merchant does not see it',
  );
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { action: 'signing_keys.write', objectId: id });
});

test('a public key of the wrong length, encoding or curve is 400 naming public_key', async (t) => {
  const valid = ed25519PublicKey();
  let offCurve = '';
  const check = new CryptoEd25519KeyCheckForTests();
  while (offCurve === '') {
    const candidate = randomBytes(32).toString('base64');
    if (!check.isPublicKey(candidate)) offCurve = candidate;
  }
  const { publicKey: rsa } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  for (const value of [
    randomBytes(31).toString('base64'),
    randomBytes(33).toString('base64'),
    randomBytes(64).toString('base64'),
    Buffer.from(valid, 'base64').toString('base64url'),
    Buffer.from(valid, 'base64').toString('hex'),
    valid.slice(0, -1),
    offCurve,
    rsa.export({ format: 'pem', type: 'spki' }).toString(),
    '',
  ]) {
    const res = await as(owner, 'POST', '/dashboard/v1/signing_keys', { public_key: value });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, param: 'public_key' }, value);
  }
  for (const [payload, param] of [
    [{}, 'public_key'],
    [{ public_key: 42 }, 'public_key'],
    [{ public_key: valid, algorithm: 'ed25519' }, 'algorithm'],
  ] as const) {
    const res = await as(owner, 'POST', '/dashboard/v1/signing_keys', payload);
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, param }, JSON.stringify(payload));
  }
});

test('viewers cannot register signing keys', async (t) => {
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  t.is((await as(viewer, 'POST', '/dashboard/v1/signing_keys', { public_key: ed25519PublicKey() })).statusCode, 403);
  t.is((await as(viewer, 'GET', '/dashboard/v1/signing_keys')).statusCode, 200);
});
