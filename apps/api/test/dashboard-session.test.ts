import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import { ROLE_PERMISSIONS, UserRepository } from '@payments/core';
import { asUser, signIn, signInAgain, totpCode, type SignedInUser } from './helpers/dashboard';
import { keysAt, objectAt, textAt } from './helpers/json';
import { startTestApp, withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({ clock }, (started) => ({ t0, shop } = started));

let ipCounter = 0;
/** Each refused sign-in counts towards its IP's throttle: tests that fail on purpose use IPs of their own. */
const freshIp = (): string => `198.51.100.${(ipCounter += 1)}`;

const signInBody = (payload: unknown, remoteAddress = freshIp()) => t0.request({ method: 'POST', url: '/dashboard/v1/session', payload, remoteAddress });
const session = (cookie?: string, headers: Record<string, string> = {}) =>
  t0.request({ method: 'GET', url: '/dashboard/v1/session', headers: { ...(cookie ? { cookie } : {}), ...headers } });

/** An error body without its request id, to compare refusals with each other. */
function refusal(res: { statusCode: number; result: unknown; headers: Record<string, unknown> }) {
  const { request_id: _id, ...error } = objectAt(res.result, 'error');
  void _id;
  return { status: res.statusCode, error, setCookie: res.headers['set-cookie'] };
}

const INVALID = { status: 401, error: { code: 'invalid_credentials', message: 'The email, password or one-time code is not right.' }, setCookie: undefined };

/** A member that claimed a second factor but has not signed in yet. */
async function enrolled(role: 'owner' | 'admin' | 'developer' | 'viewer' = 'developer'): Promise<SignedInUser> {
  const member = await signIn(t0, { merchantId: shop.id, role });
  // Next step, so the code signIn used is in the past and the tests below own the current one.
  clock.advance(30_000);
  return member;
}

test.serial('claim, sign in with a real TOTP code, read the session: the user and nothing secret', async (t) => {
  const member = await signIn(t0, { merchantId: shop.id, role: 'admin', name: 'Nok' });
  const res = await session(member.cookie);
  t.is(res.statusCode, 200);
  t.deepEqual(res.result, {
    id: member.userId,
    object: 'dashboard_user',
    email: member.email,
    name: 'Nok',
    role: 'admin',
    status: 'active',
    mfa_enabled: true,
    created: '2026-09-01T10:00:00Z',
    // What an admin may do, for a client to offer (dashboard-roles holds it to the role table).
    permissions: [...ROLE_PERMISSIONS.admin],
  });
  t.false(res.payload.includes(member.totpSecret));
  t.false(res.payload.includes('scrypt'));
});

test.serial('the sign-in answer is the bare user and a cookie with the right attributes', async (t) => {
  const member = await enrolled();
  const res = await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) });
  t.is(res.statusCode, 200);
  t.like(res.result, { id: member.userId, object: 'dashboard_user', mfa_enabled: true });
  const setCookie = [res.headers['set-cookie'] ?? []].flat();
  t.is(setCookie.length, 1);
  const attributes = setCookie[0].split(/;\s*/);
  t.regex(attributes[0], /^dashboard_session=[A-Za-z0-9_-]{43}$/);
  for (const attribute of ['Max-Age=1800', 'Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/dashboard']) t.true(attributes.includes(attribute), attribute);
  t.true(attributes.some((attribute) => attribute.startsWith('Expires=')));
});

test.serial('the email is matched whatever its case and surrounding spaces', async (t) => {
  const member = await enrolled();
  const res = await signInBody({ email: `  ${member.email.toUpperCase()} `, password: member.password, code: totpCode(t0, member.totpSecret) });
  t.is(res.statusCode, 200);
});

test.serial('wrong password, wrong code, reused code, unknown email, no second factor: one and the same 401', async (t) => {
  const member = await enrolled();
  const code = totpCode(t0, member.totpSecret);
  const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const answers = {
    wrongPassword: await signInBody({ email: member.email, password: `${member.password}x`, code }),
    wrongCode: await signInBody({ email: member.email, password: member.password, code: wrongCode }),
    notDigits: await signInBody({ email: member.email, password: member.password, code: 'abcdef' }),
    unknownEmail: await signInBody({ email: `nobody-${member.userId}@example.com`, password: member.password, code }),
  };
  // The code was not spent by the refusals: it still signs in, once.
  t.is((await signInBody({ email: member.email, password: member.password, code })).statusCode, 200);
  const reused = await signInBody({ email: member.email, password: member.password, code });
  // A user that never claimed a second factor.
  const users = t0.app.get<UserRepository>(UserRepository);
  const fresh = await enrolled();
  const stored = await users.findById(shop.id, fresh.userId);
  const { mfaSecret: _s, mfaLastStep: _l, ...withoutMfa } = stored!;
  void _s;
  void _l;
  await users.update(withoutMfa);
  const noMfa = await signInBody({ email: fresh.email, password: fresh.password, code: totpCode(t0, fresh.totpSecret) });

  for (const [name, res] of Object.entries({ ...answers, reused, noMfa })) {
    t.deepEqual(refusal(res), INVALID, name);
    t.false(res.payload.includes(member.password), name);
  }
});

test.serial('a code of the next step works once; a code two steps away never', async (t) => {
  const member = await enrolled();
  t.is((await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret, 2) })).statusCode, 401);
  t.is((await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret, -2) })).statusCode, 401);
  t.is((await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret, 1) })).statusCode, 200);
  // The current step is now behind the one used: refused, as a code seen over a shoulder must be.
  t.is((await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) })).statusCode, 401);
});

test.serial('a disabled user cannot sign in, with the right password and code: the same 401', async (t) => {
  const member = await enrolled();
  const users = t0.app.get<UserRepository>(UserRepository);
  await users.update({ ...(await users.findById(shop.id, member.userId))!, status: 'disabled' });
  const res = await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) });
  t.deepEqual(refusal(res), INVALID);
  t.is((await session(member.cookie)).statusCode, 401, 'and the session it had is over');
});

test.serial('a session lasts 30 minutes from sign-in, however much it is used', async (t) => {
  const member = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  clock.advance(29 * 60_000);
  t.is((await session(member.cookie)).statusCode, 200);
  clock.advance(59_999);
  t.is((await session(member.cookie)).statusCode, 200);
  clock.advance(1);
  const expired = await session(member.cookie);
  t.is(expired.statusCode, 401);
  t.like(expired.result, { error: { code: 'authentication_required' } });
});

test.serial('sign-out: 204, the cookie is cleared, and the token signs nobody in again', async (t) => {
  const member = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const res = await asUser(t0, member, { method: 'DELETE', url: '/dashboard/v1/session' });
  t.is(res.statusCode, 204);
  t.is(res.payload, '');
  const cleared = [res.headers['set-cookie'] ?? []].flat()[0];
  t.regex(cleared, /^dashboard_session=;/);
  t.true(cleared.includes('Max-Age=0'));
  t.true(cleared.includes('Path=/dashboard'));
  t.is((await session(member.cookie)).statusCode, 401);
  t.is((await asUser(t0, member, { method: 'DELETE', url: '/dashboard/v1/session' })).statusCode, 401);
  // Signing in again gives a new session.
  clock.advance(30_000);
  const again = await signInAgain(t0, member, 0);
  t.not(again, member.cookie);
  t.is((await session(again)).statusCode, 200);
});

test.serial('no cookie, a garbage cookie or an unknown token is 401 authentication_required', async (t) => {
  for (const cookie of [undefined, 'dashboard_session=garbage', `dashboard_session=${'A'.repeat(43)}`, 'other=1']) {
    const res = await session(cookie);
    t.is(res.statusCode, 401, String(cookie));
    t.like(res.result, { error: { code: 'authentication_required' } });
  }
});

test.serial('an API key is no credential on /dashboard/v1, and a dashboard cookie none on /v1', async (t) => {
  const onDashboard = await session(undefined, { authorization: `Bearer ${shop.testKey}` });
  t.is(onDashboard.statusCode, 401);
  t.like(onDashboard.result, { error: { code: 'authentication_required' } });
  const member = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const onV1 = await t0.request({ method: 'GET', url: '/v1/payment_intents', headers: { cookie: member.cookie } });
  t.is(onV1.statusCode, 401);
  t.like(onV1.result, { error: { code: 'authentication_required' } });
  // Both together on the dashboard: the cookie is what counts.
  t.is((await session(member.cookie, { authorization: `Bearer ${shop.testKey}` })).statusCode, 200);
});

test.serial('MFA claim: once per user; a second claim, a wrong password or an unknown email get the same 401', async (t) => {
  const member = await enrolled();
  const again = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/mfa',
    payload: { email: member.email, password: member.password },
    remoteAddress: freshIp(),
  });
  const wrong = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/mfa',
    payload: { email: member.email, password: 'not the password' },
    remoteAddress: freshIp(),
  });
  const unknown = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/mfa',
    payload: { email: `x-${member.userId}@example.com`, password: member.password },
    remoteAddress: freshIp(),
  });
  for (const res of [again, wrong, unknown]) t.deepEqual(refusal(res), INVALID);
  // The first secret is still the one that works.
  t.is((await signInBody({ email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) })).statusCode, 200);
});

test.serial('MFA claim answers the secret and an otpauth URL, and the secret is stored sealed only', async (t) => {
  const users = t0.app.get<UserRepository>(UserRepository);
  const member = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const stored = await users.findById(shop.id, member.userId);
  const { mfaSecret: _s, mfaLastStep: _l, ...withoutMfa } = stored!;
  void _s;
  void _l;
  await users.update(withoutMfa);
  const res = await t0.request({ method: 'POST', url: '/dashboard/v1/mfa', payload: { email: member.email, password: member.password } });
  t.is(res.statusCode, 200);
  t.deepEqual(keysAt(res.result).sort(), ['otpauth_url', 'secret']);
  const secret = textAt(res.result, 'secret');
  const otpauthUrl = textAt(res.result, 'otpauth_url');
  t.regex(secret, /^[A-Z2-7]{16,}$/);
  t.true(otpauthUrl.startsWith('otpauth://totp/'));
  t.true(otpauthUrl.includes(`secret=${secret}`));
  const sealed = (await users.findById(shop.id, member.userId))?.mfaSecret;
  t.truthy(sealed);
  t.false(sealed!.includes(secret));
  t.is(res.headers['set-cookie'], undefined, 'claiming signs nobody in');
});

test.serial('unknown and missing body fields are 400 invalid_parameter naming the field, echoing no value', async (t) => {
  const member = await enrolled();
  const extra = await signInBody({ email: member.email, password: member.password, code: '123456', remember_me: true });
  t.is(extra.statusCode, 400);
  t.like(extra.result, { error: { code: 'invalid_parameter', param: 'remember_me' } });
  const missing = await signInBody({ email: member.email, password: member.password });
  t.like(missing.result, { error: { code: 'invalid_parameter', param: 'code' } });
  const wrongType = await signInBody({ email: member.email, password: 123456789012, code: '123456' });
  t.like(wrongType.result, { error: { code: 'invalid_parameter', param: 'password' } });
  t.false(wrongType.payload.includes('123456789012'));
  const claimExtra = await t0.request({ method: 'POST', url: '/dashboard/v1/mfa', payload: { email: member.email, password: member.password, code: '1' } });
  t.like(claimExtra.result, { error: { code: 'invalid_parameter', param: 'code' } });
});

test.serial('an http base URL makes the cookie without Secure', async (t) => {
  const plain = await startTestApp({ env: { PAYMENTS_BASE_URL: 'http://localhost:4242' } });
  t.teardown(() => plain.close());
  const other = await plain.merchant();
  const member = await signIn(plain, { merchantId: other.id, role: 'viewer' });
  const attributes = member.setCookie.split(/;\s*/);
  t.false(attributes.includes('Secure'));
  for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/dashboard', 'Max-Age=1800']) t.true(attributes.includes(attribute), attribute);
  t.is((await plain.request({ method: 'GET', url: '/dashboard/v1/session', headers: { cookie: member.cookie } })).statusCode, 200);
});
