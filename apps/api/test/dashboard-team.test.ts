import { randomBytes } from 'node:crypto';
import test from 'ava';
import { AuditLog, MerchantRepository, NoticeOutbox, UserRepository, type UserRole } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { asUser, claimMfa, freshCode, signIn, signInWith, totpCode, type SignedInUser } from './helpers/dashboard';
import { apiObjectAt, apiObjectsAt, objectAt, type ApiObject } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({ clock }, (started) => ({ t0, shop } = started));

const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });
const newEmail = (): string => `member-${randomBytes(6).toString('hex')}@example.com`;
/** The acting user's one-time code for a step-up route, of a step no earlier request used. */
const codeOf = (user: SignedInUser): string => freshCode(t0, clock, user);
const PASSWORD = 'a long enough password';

async function addMember(by: SignedInUser, role: UserRole, extra: Record<string, unknown> = {}): Promise<ApiObject> {
  const res = await as(by, 'POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role, code: codeOf(by), ...extra });
  if (res.statusCode !== 201) throw new Error(`add member answered ${res.statusCode}: ${res.payload}`);
  return apiObjectAt(res.result);
}

test.serial('an owner adds a member: 201 the bare user, no second factor yet, nothing secret', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const email = newEmail();
  const res = await as(owner, 'POST', '/dashboard/v1/users', {
    email: email.toUpperCase(),
    password: PASSWORD,
    role: 'developer',
    name: 'Somchai',
    code: codeOf(owner),
  });
  t.is(res.statusCode, 201);
  const user = apiObjectAt(res.result);
  t.regex(user.id, /^usr_[0-9A-Za-z]+$/);
  // Created at the step the owner's code moved the clock to.
  t.deepEqual(user, {
    id: user.id,
    object: 'dashboard_user',
    email,
    name: 'Somchai',
    role: 'developer',
    status: 'active',
    mfa_enabled: false,
    created: '2026-09-01T10:00:30Z',
  });
  t.false(res.payload.includes(PASSWORD));
  t.false(res.payload.includes('scrypt'));
  const list = await as(owner, 'GET', '/dashboard/v1/users');
  t.is(list.statusCode, 200);
  const body = objectAt(list.result);
  t.is(body.object, 'list');
  t.false(body.has_more);
  t.true(apiObjectsAt(body, 'data').some((member) => member.id === user.id));
  t.false(list.payload.includes('scrypt'));
  // The new member's first call is the MFA claim, then sign-in.
  const secret = await claimMfa(t0, email, PASSWORD);
  clock.advance(30_000);
  t.truthy(await signInWith(t0, { email, password: PASSWORD, code: totpCode(t0, secret) }));
});

test.serial('only an owner grants the owner role', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const admin = await signIn(t0, { merchantId: shop.id, role: 'admin' });
  const refused = await as(admin, 'POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'owner' });
  t.is(refused.statusCode, 403);
  t.like(refused.result, { error: { code: 'forbidden' } });
  const developer = await addMember(admin, 'developer');
  const promote = await as(admin, 'PATCH', `/dashboard/v1/users/${developer.id}`, { role: 'owner' });
  t.is(promote.statusCode, 403);
  t.like(promote.result, { error: { code: 'forbidden' } });
  t.is((await addMember(owner, 'owner')).role, 'owner');
  const promoted = await as(owner, 'PATCH', `/dashboard/v1/users/${developer.id}`, { role: 'owner', code: codeOf(owner) });
  t.is(promoted.statusCode, 200);
  t.like(promoted.result, { id: developer.id, role: 'owner' });
});

test.serial("only an owner removes the owner role or changes an owner's row", async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const admin = await signIn(t0, { merchantId: shop.id, role: 'admin' });
  const other = await addMember(owner, 'owner');
  for (const [method, path, body] of [
    ['PATCH', `/dashboard/v1/users/${other.id}`, { role: 'admin' }],
    ['PATCH', `/dashboard/v1/users/${other.id}`, { status: 'disabled' }],
    ['POST', `/dashboard/v1/users/${other.id}/mfa`, undefined],
  ] as const) {
    const res = await as(admin, method, path, body);
    t.is(res.statusCode, 403, `${method} ${path} ${JSON.stringify(body)}`);
    t.like(res.result, { error: { code: 'forbidden' } });
  }
  const demoted = await as(owner, 'PATCH', `/dashboard/v1/users/${other.id}`, { role: 'admin' });
  t.like(demoted.result, { role: 'admin' });
});

test.serial('nobody edits their own row, owners included', async (t) => {
  for (const role of ['owner', 'admin'] as const) {
    const user = await signIn(t0, { merchantId: shop.id, role });
    for (const [method, path, body] of [
      ['PATCH', `/dashboard/v1/users/${user.userId}`, { role: 'viewer' }],
      ['PATCH', `/dashboard/v1/users/${user.userId}`, { status: 'disabled' }],
      ['PATCH', `/dashboard/v1/users/${user.userId}`, {}],
      ['POST', `/dashboard/v1/users/${user.userId}/mfa`, undefined],
    ] as const) {
      const res = await as(user, method, path, body);
      t.is(res.statusCode, 403, `${role} ${method} ${path}`);
      t.like(res.result, { error: { code: 'forbidden' } });
    }
    t.like((await as(user, 'GET', '/dashboard/v1/session')).result, { role, status: 'active', mfa_enabled: true });
  }
});

test.serial("a new role applies to the member's very next request", async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const admin = await signIn(t0, { merchantId: shop.id, role: 'admin' });
  await addMember(admin, 'viewer');
  t.is((await as(owner, 'PATCH', `/dashboard/v1/users/${admin.userId}`, { role: 'viewer' })).statusCode, 200);
  const refused = await as(admin, 'POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'viewer' });
  t.is(refused.statusCode, 403);
  t.like(refused.result, { error: { code: 'forbidden' } });
  t.like((await as(admin, 'GET', '/dashboard/v1/session')).result, { role: 'viewer' });
});

test.serial('disabling a member ends their sessions at once; enabling again does not revive them', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const member = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  t.is((await as(member, 'GET', '/dashboard/v1/session')).statusCode, 200);
  const disabled = await as(owner, 'PATCH', `/dashboard/v1/users/${member.userId}`, { status: 'disabled' });
  t.is(disabled.statusCode, 200);
  t.like(disabled.result, { id: member.userId, status: 'disabled' });
  const after = await as(member, 'GET', '/dashboard/v1/session');
  t.is(after.statusCode, 401);
  t.like(after.result, { error: { code: 'authentication_required' } });
  t.like((await as(owner, 'PATCH', `/dashboard/v1/users/${member.userId}`, { status: 'active' })).result, { status: 'active' });
  t.is((await as(member, 'GET', '/dashboard/v1/session')).statusCode, 401, 'the old session stays ended');
  clock.advance(30_000);
  const again = await signInWith(t0, { email: member.email, password: member.password, code: totpCode(t0, member.totpSecret) });
  t.is((await asUser(t0, { cookie: again }, { method: 'GET', url: '/dashboard/v1/session' })).statusCode, 200);
});

test.serial('an MFA reset stops the old code at once, ends the sessions, and the member reclaims a new secret', async (t) => {
  const admin = await signIn(t0, { merchantId: shop.id, role: 'admin' });
  const member = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  clock.advance(30_000);
  const oldCode = totpCode(t0, member.totpSecret);
  const res = await as(admin, 'POST', `/dashboard/v1/users/${member.userId}/mfa`, { code: codeOf(admin) });
  t.is(res.statusCode, 200);
  t.like(res.result, { id: member.userId, object: 'dashboard_user', mfa_enabled: false });
  t.is((await as(member, 'GET', '/dashboard/v1/session')).statusCode, 401, 'the member is signed out');
  const withOld = await t0.request({
    method: 'POST',
    url: '/dashboard/v1/session',
    payload: { email: member.email, password: member.password, code: oldCode },
  });
  t.is(withOld.statusCode, 401);
  t.like(withOld.result, { error: { code: 'invalid_credentials' } });
  const secret = await claimMfa(t0, member.email, member.password);
  t.not(secret, member.totpSecret);
  const cookie = await signInWith(t0, { email: member.email, password: member.password, code: totpCode(t0, secret) });
  t.like((await asUser(t0, { cookie }, { method: 'GET', url: '/dashboard/v1/session' })).result, { mfa_enabled: true });
});

test.serial('concurrent edits of one member never undo each other: every change is in the end state', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const users = t0.app.get<UserRepository>(UserRepository);
  // Several rounds: each pair races its reads and writes; one lost update is enough to fail.
  for (let round = 0; round < 8; round += 1) {
    const member = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
    const [roleChange, disable] = await Promise.all([
      as(owner, 'PATCH', `/dashboard/v1/users/${member.userId}`, { role: 'developer' }),
      as(owner, 'PATCH', `/dashboard/v1/users/${member.userId}`, { status: 'disabled' }),
    ]);
    t.deepEqual([roleChange.statusCode, disable.statusCode], [200, 200]);
    t.like(await users.findById(shop.id, member.userId), { role: 'developer', status: 'disabled' }, `round ${round}`);

    const other = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
    const [reset, demote] = await Promise.all([
      as(owner, 'POST', `/dashboard/v1/users/${other.userId}/mfa`, { code: codeOf(owner) }),
      as(owner, 'PATCH', `/dashboard/v1/users/${other.userId}`, { role: 'developer' }),
    ]);
    t.deepEqual([reset.statusCode, demote.statusCode], [200, 200]);
    const after = await users.findById(shop.id, other.userId);
    t.like(after, { role: 'developer' }, `round ${round}`);
    t.is(after?.mfaSecret, undefined, `round ${round}: the reset second factor did not come back`);
  }
});

test.serial("another merchant's user is 404 and is never listed", async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const elsewhere = await t0.merchant();
  const stranger = await signIn(t0, { merchantId: elsewhere.id, role: 'developer' });
  for (const [method, path, body] of [
    ['PATCH', `/dashboard/v1/users/${stranger.userId}`, { status: 'disabled' }],
    ['POST', `/dashboard/v1/users/${stranger.userId}/mfa`, undefined],
  ] as const) {
    const res = await as(owner, method, path, body);
    t.is(res.statusCode, 404, `${method} ${path}`);
    t.like(res.result, { error: { code: 'resource_not_found' } });
  }
  const list = apiObjectsAt((await as(owner, 'GET', '/dashboard/v1/users')).result, 'data');
  t.false(list.some((user) => user.id === stranger.userId));
  t.is((await as(stranger, 'GET', '/dashboard/v1/session')).statusCode, 200, 'the stranger was not touched');
});

test.serial('bad bodies and ids are 400 naming the field; a taken email is 409', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const member = await addMember(owner, 'viewer');
  const cases: [string, string, unknown, string][] = [
    ['POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'viewer', admin: true }, 'admin'],
    ['POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'superuser' }, 'role'],
    ['POST', '/dashboard/v1/users', { email: 'not-an-email', password: PASSWORD, role: 'viewer' }, 'email'],
    ['POST', '/dashboard/v1/users', { email: newEmail(), password: 'short', role: 'viewer' }, 'password'],
    ['POST', '/dashboard/v1/users', { email: newEmail(), role: 'viewer' }, 'password'],
    ['PATCH', `/dashboard/v1/users/${member.id}`, { email: newEmail() }, 'email'],
    ['PATCH', `/dashboard/v1/users/${member.id}`, { status: 'deleted' }, 'status'],
    ['PATCH', '/dashboard/v1/users/not-a-user-id', { status: 'disabled' }, 'id'],
    ['POST', `/dashboard/v1/users/${member.id}/mfa`, { code: '123456', force: true }, 'force'],
  ];
  for (const [method, url, payload, param] of cases) {
    const res = await as(owner, method, url, payload);
    t.is(res.statusCode, 400, `${method} ${url} ${JSON.stringify(payload)}`);
    t.like(res.result, { error: { code: 'invalid_parameter', param } });
    t.false(res.payload.includes(PASSWORD));
  }
  const taken = await as(owner, 'POST', '/dashboard/v1/users', { email: member.email, password: PASSWORD, role: 'viewer', code: codeOf(owner) });
  t.is(taken.statusCode, 409);
  t.like(taken.result, { error: { code: 'email_taken' } });
  const unknown = await as(owner, 'PATCH', '/dashboard/v1/users/usr_00000000000000000000', { status: 'disabled' });
  t.is(unknown.statusCode, 404);
});

test.serial('every team change is in the audit log with who made it', async (t) => {
  const owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  const member = await addMember(owner, 'viewer');
  await as(owner, 'PATCH', `/dashboard/v1/users/${member.id}`, { role: 'developer', status: 'disabled' });
  await as(owner, 'POST', `/dashboard/v1/users/${member.id}/mfa`, { code: codeOf(owner) });
  const entries = (await t0.app.get<AuditLog>(AuditLog).listForMerchant(shop.id, 100)).filter((entry) => entry.objectId === member.id);
  t.deepEqual(
    entries.map((entry) => [entry.action, entry.userId, entry.details]),
    [
      ['users.reset_mfa', owner.userId, { change: 'mfa_reset' }],
      ['users.write', owner.userId, { change: 'updated', role_from: 'viewer', role_to: 'developer', status_from: 'active', status_to: 'disabled' }],
      ['users.write', owner.userId, { change: 'created', role: 'viewer' }],
    ],
  );
  // The addition tells the account's email; the reset tells the member and the account's email.
  const accountEmail = (await t0.app.get<MerchantRepository>(MerchantRepository).findById(shop.id))?.email;
  const notices = (await t0.app.get<NoticeOutbox>(NoticeOutbox).listForMerchant(shop.id, 100)).filter((notice) => notice.details.user === member.id);
  t.deepEqual(
    notices.map((notice): unknown[] => [notice.kind, notice.recipient]).sort(),
    [
      ['user.added', accountEmail],
      ['user.mfa_reset', accountEmail],
      ['user.mfa_reset', member.email],
    ].sort(),
  );
  const sessions = (await t0.app.get<AuditLog>(AuditLog).listForMerchant(shop.id, 500)).filter(
    (entry) => entry.userId === owner.userId && entry.action === 'session.created',
  );
  t.is(sessions.length, 1, 'sign-in is recorded too');
});
