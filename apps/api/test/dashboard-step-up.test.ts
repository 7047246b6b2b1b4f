import { randomBytes } from 'node:crypto';
import test from 'ava';
import { MerchantRepository, NoticeOutbox, UserRepository, type Notice } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { asUser, freshCode, signIn, totpCode, type SignedInUser } from './helpers/dashboard';
import { apiObjectAt, jsonAt } from './helpers/json';
import { startTestApp, type TestApp, type TestMerchant } from './helpers/test-app';

/*
 * Step-up actions (payout destinations, adding a member, granting admin or owner, resetting a
 * member's second factor) take the acting person's one-time code, and wrong codes are counted per
 * user and throttled like sign-in: 10 per 15 minutes, then 429 with Retry-After.
 */

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ clock });
});
test.after.always(async () => t0?.close());

const FIFTEEN_MINUTES = 15 * 60_000;
const PASSWORD = 'a long enough password';
const WRONG = '000000';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  result: unknown;
}
const errorCode = (res: Answer): unknown => jsonAt(res.result, 'error', 'code');
const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });
const newEmail = (): string => `member-${randomBytes(6).toString('hex')}@example.com`;
const code = (user: SignedInUser): string => freshCode(t0, clock, user);
/** A code that is certainly not the user's current one (the current one is skipped if it happens to be 000000). */
const wrongCode = (user: SignedInUser): string => (totpCode(t0, user.totpSecret) === WRONG ? '111111' : WRONG);
const simulated = (accountNumber = '1234567890') => ({
  type: 'simulated',
  currency: 'THB',
  account_holder: 'Siam Coffee Co.',
  bank_code: '004',
  account_number: accountNumber,
});
const registerPayout = (user: SignedInUser, codeValue: unknown) =>
  as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: codeValue });

/** Each test has its own merchant and owner: their failure counts start at nothing. */
async function account(): Promise<{ shop: TestMerchant; owner: SignedInUser }> {
  const shop = await t0.merchant();
  return { shop, owner: await signIn(t0, { merchantId: shop.id, role: 'owner' }) };
}

async function noticesOf(merchantId: string): Promise<Notice[]> {
  return t0.app.get<NoticeOutbox>(NoticeOutbox).listForMerchant(merchantId, 100);
}

async function accountEmail(merchantId: string): Promise<string> {
  return (await t0.app.get<MerchantRepository>(MerchantRepository).findById(merchantId))!.email;
}

test.serial('40 wrong codes in a row on a step-up route: ten are 403, the rest 429 with Retry-After, and nothing is written', async (t) => {
  const { shop, owner } = await account();
  const statuses: number[] = [];
  for (let i = 0; i < 40; i += 1) {
    const res = await registerPayout(owner, wrongCode(owner));
    statuses.push(res.statusCode);
    if (res.statusCode === 403) t.is(errorCode(res), 'mfa_code_invalid');
    if (res.statusCode === 429) {
      t.is(errorCode(res), 'rate_limited');
      t.is(res.headers['retry-after'], '900');
    }
  }
  t.deepEqual(statuses, [...Array<number>(10).fill(403), ...Array<number>(30).fill(429)]);
  // Even the right code waits until the first failures leave the 15-minute window.
  const blocked = await registerPayout(owner, code(owner));
  t.is(blocked.statusCode, 429);
  t.true(Number(blocked.headers['retry-after']) > 0 && Number(blocked.headers['retry-after']) <= 900);
  t.deepEqual((await as(owner, 'GET', '/dashboard/v1/payout_methods?mode=test')).result, { object: 'list', data: [], has_more: false });
  t.deepEqual(await noticesOf(shop.id), []);

  clock.advance(FIFTEEN_MINUTES);
  const owner2 = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  t.is((await registerPayout(owner2, code(owner2))).statusCode, 201, 'another user was never blocked');
  t.is((await registerPayout(owner, code(owner))).statusCode, 201, '15 minutes after the failures the owner may try again');
});

test.serial('a right code does not reset a run of wrong ones', async (t) => {
  const { owner } = await account();
  for (let i = 0; i < 9; i += 1) t.is((await registerPayout(owner, wrongCode(owner))).statusCode, 403);
  t.is((await registerPayout(owner, code(owner))).statusCode, 201, 'the right code still works under the limit');
  t.is((await registerPayout(owner, wrongCode(owner))).statusCode, 403, 'the tenth wrong code');
  const limited = await registerPayout(owner, code(owner));
  t.is(limited.statusCode, 429);
  t.true(Number(limited.headers['retry-after']) > 0);
});

test.serial('a burst of parallel wrong codes gets no more tries than the limit', async (t) => {
  const { owner } = await account();
  const answers = await Promise.all(Array.from({ length: 30 }, () => registerPayout(owner, wrongCode(owner))));
  const statuses = answers.map((res) => res.statusCode).sort();
  t.deepEqual(statuses, [...Array<number>(10).fill(403), ...Array<number>(20).fill(429)]);
});

test.serial('wrong codes on every step-up route count into one tally per user', async (t) => {
  const { owner } = await account();
  const developer = apiObjectAt(
    (await as(owner, 'POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'developer', code: code(owner) })).result,
  );
  const routes: [string, string, Record<string, unknown>][] = [
    ['POST', '/dashboard/v1/users', { email: newEmail(), password: PASSWORD, role: 'viewer' }],
    ['PATCH', `/dashboard/v1/users/${developer.id}`, { role: 'admin' }],
    ['POST', `/dashboard/v1/users/${developer.id}/mfa`, {}],
    ['POST', '/dashboard/v1/payout_methods?mode=test', simulated()],
  ];
  for (let i = 0; i < 10; i += 1) {
    const [method, url, body] = routes[i % routes.length];
    const res = await as(owner, method, url, { ...body, code: wrongCode(owner) });
    t.is(res.statusCode, 403, `${method} ${url}`);
    t.is(errorCode(res), 'mfa_code_invalid');
  }
  for (const [method, url, body] of routes) {
    const res = await as(owner, method, url, { ...body, code: code(owner) });
    t.is(res.statusCode, 429, `${method} ${url}`);
  }
  // A change that grants nothing needs no code, and a throttled actor can still make it.
  t.like((await as(owner, 'PATCH', `/dashboard/v1/users/${developer.id}`, { status: 'disabled' })).result, { status: 'disabled' });
});

test.serial('adding a member takes the acting code and tells the account email', async (t) => {
  const { shop } = await account();
  const admin = await signIn(t0, { merchantId: shop.id, role: 'admin' });
  const email = newEmail();
  for (const body of [{}, { code: wrongCode(admin) }, { code: 123456 }, { code: `${totpCode(t0, admin.totpSecret)}0` }]) {
    const refused = await as(admin, 'POST', '/dashboard/v1/users', { email, password: PASSWORD, role: 'admin', ...body });
    t.is(refused.statusCode, 403, JSON.stringify(body));
    t.is(errorCode(refused), 'mfa_code_invalid');
  }
  t.is(await t0.app.get<UserRepository>(UserRepository).findByEmail(email), undefined, 'nothing was added');
  t.deepEqual(await noticesOf(shop.id), []);

  const added = await as(admin, 'POST', '/dashboard/v1/users', { email, password: PASSWORD, role: 'admin', code: code(admin) });
  t.is(added.statusCode, 201);
  const member = apiObjectAt(added.result);
  t.is(member.role, 'admin');
  t.false(added.payload.includes('"code"'));
  const notices = await noticesOf(shop.id);
  t.deepEqual(
    notices.map((notice): unknown[] => [notice.kind, notice.recipient, notice.details]),
    [['user.added', await accountEmail(shop.id), { user: member.id, user_email: email, role: 'admin', added_by: admin.email }]],
  );
});

test.serial('granting admin or owner takes the acting code and tells the account email; other changes do not', async (t) => {
  const { shop, owner } = await account();
  const users = t0.app.get<UserRepository>(UserRepository);
  const viewer = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const accountAddress = await accountEmail(shop.id);

  for (const role of ['admin', 'owner'] as const) {
    const refused = await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { role });
    t.is(refused.statusCode, 403, role);
    t.is(errorCode(refused), 'mfa_code_invalid');
  }
  t.is((await users.findById(shop.id, viewer.userId))?.role, 'viewer', 'nothing changed');

  const granted = await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { role: 'admin', code: code(owner) });
  t.is(granted.statusCode, 200);
  t.like(granted.result, { role: 'admin' });
  const promoted = await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { role: 'owner', code: code(owner) });
  t.like(promoted.result, { role: 'owner' });
  // Demoting and the lesser roles are no grants: no code, no notice.
  t.like((await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { role: 'admin' })).result, { role: 'admin' });
  t.like((await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { role: 'developer' })).result, { role: 'developer' });
  t.like((await as(owner, 'PATCH', `/dashboard/v1/users/${viewer.userId}`, { status: 'disabled' })).result, { status: 'disabled' });

  const notices = (await noticesOf(shop.id)).reverse();
  t.deepEqual(
    notices.map((notice): unknown[] => [notice.kind, notice.recipient, notice.details.role_from, notice.details.role_to, notice.details.granted_by]),
    [
      ['user.role_granted', accountAddress, 'viewer', 'admin', owner.email],
      ['user.role_granted', accountAddress, 'admin', 'owner', owner.email],
    ],
  );
});

test.serial("resetting a member's second factor takes the acting code; the notice goes to the member and the account email", async (t) => {
  const { shop, owner } = await account();
  const member = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  const refused = await as(owner, 'POST', `/dashboard/v1/users/${member.userId}/mfa`);
  t.is(refused.statusCode, 403);
  t.is(errorCode(refused), 'mfa_code_invalid');
  t.is((await as(member, 'GET', '/dashboard/v1/session')).statusCode, 200, 'the member was not signed out');
  t.deepEqual(await noticesOf(shop.id), []);

  const reset = await as(owner, 'POST', `/dashboard/v1/users/${member.userId}/mfa`, { code: code(owner) });
  t.is(reset.statusCode, 200);
  t.like(reset.result, { id: member.userId, mfa_enabled: false });
  t.is((await as(member, 'GET', '/dashboard/v1/session')).statusCode, 401);
  t.deepEqual(
    (await noticesOf(shop.id)).map((notice): unknown[] => [notice.kind, notice.recipient]).sort(),
    [
      ['user.mfa_reset', await accountEmail(shop.id)],
      ['user.mfa_reset', member.email],
    ].sort(),
  );
});
