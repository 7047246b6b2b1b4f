import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import { AuditLog, DeliverNotices, NoticeOutbox } from './helpers/dashboard-resources';
import { asUser, errorOf, freshCode as nextStepCode, signIn, type SignedInUser } from './helpers/dashboard';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { apiObjectAt, apiObjectsAt, listAt, objectAt, textAt } from './helpers/json';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let shop: TestMerchant;
let owner: SignedInUser;
withAppAndMerchant({ clock }, async (started) => {
  ({ t0, shop } = started);
  owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
});

const as = (user: SignedInUser, method: string, url: string, payload?: unknown) => asUser(t0, user, { method, url, payload });

/** A fresh code of the next step (tests in this file run one at a time, see below). */
const freshCode = (user: SignedInUser): string => nextStepCode(t0, clock, user);

/** Each test uses its own merchant; they share one FakeClock, so they run serially. */
async function account(role: 'owner' | 'admin' = 'owner'): Promise<{ merchant: TestMerchant; user: SignedInUser }> {
  const merchant = await t0.merchant();
  return { merchant, user: await signIn(t0, { merchantId: merchant.id, role }) };
}

const simulated = (overrides: Record<string, unknown> = {}) => ({
  type: 'simulated',
  currency: 'THB',
  account_holder: 'Siam Coffee Co.',
  bank_code: '004',
  account_number: '1234567890',
  ...overrides,
});
const bankAccount = (overrides: Record<string, unknown> = {}) => simulated({ type: 'bank_account', account_number: '9876-5432-1098', ...overrides });

async function notices(merchantId: string) {
  return t0.app.get<NoticeOutbox>(NoticeOutbox).listForMerchant(merchantId, 50);
}

test.serial('mode is required and must be test or live', async (t) => {
  for (const url of ['/dashboard/v1/payout_methods', '/dashboard/v1/payout_methods?mode=prod', '/dashboard/v1/payout_methods?mode=test&extra=1']) {
    const res = await as(owner, 'GET', url);
    t.is(res.statusCode, 400, url);
    t.is(errorOf(res).code, 'invalid_parameter');
    t.true(['mode', 'extra'].includes(textAt(errorOf(res), 'param')));
  }
});

test.serial('test mode: a simulated destination is registered with a code, verified at once, the default, masked, and noticed', async (t) => {
  const { merchant, user } = await account('admin');
  const res = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(user) });
  t.is(res.statusCode, 201);
  const created = apiObjectAt(res.result);
  t.like(created, {
    object: 'payout_method',
    mode: 'test',
    type: 'simulated',
    currency: 'THB',
    account_holder: 'Siam Coffee Co.',
    account_number: '****7890',
    account_number_last4: '7890',
    status: 'verified',
    default: true,
  });
  t.false('hold_until' in created, 'no hold in test mode');
  t.false(res.payload.includes('1234567890'));
  t.false(res.payload.includes('"code"'));

  const list = await as(user, 'GET', '/dashboard/v1/payout_methods?mode=test');
  t.like(list.result, { object: 'list', has_more: false });
  t.deepEqual(apiObjectsAt(list.result, 'data'), [created]);
  t.false(list.payload.includes('1234567890'));
  t.deepEqual(listAt((await as(user, 'GET', '/dashboard/v1/payout_methods?mode=live')).result, 'data'), [], 'each mode has its own');

  const [notice] = await notices(merchant.id);
  t.like(notice, { kind: 'payout_destination.registered', details: { destination: created.id, mode: 'test', account_last4: '7890' } });
  t.regex(notice?.recipient ?? '', /^owner-.*@example\.com$/, "the account's email");
  t.false(JSON.stringify(notice).includes('1234567890'));
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { action: 'payout_methods.write', objectId: created.id, userId: user.userId });
});

test.serial('a missing, wrong, malformed or reused code is 403 mfa_code_invalid and writes nothing, no notice either', async (t) => {
  const { merchant, user } = await account();
  const good = freshCode(user);
  const wrong = good === '000000' ? '111111' : '000000';
  for (const code of [undefined, wrong, '12345', 123456, null, { code: good }]) {
    const res = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), ...(code === undefined ? {} : { code }) });
    t.is(res.statusCode, 403, JSON.stringify(code));
    t.is(errorOf(res).code, 'mfa_code_invalid');
    t.false(res.payload.includes('1234567890'));
    t.false(res.payload.includes(good));
  }
  t.deepEqual(listAt((await as(user, 'GET', '/dashboard/v1/payout_methods?mode=test')).result, 'data'), []);
  t.deepEqual(await notices(merchant.id), []);
  t.is((await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 50)).filter((e) => e.action === 'payout_methods.write').length, 0);

  t.is((await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: good })).statusCode, 201);
  const reused = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated({ account_number: '5555555555' }), code: good });
  t.like({ status: reused.statusCode, ...errorOf(reused) }, { status: 403, code: 'mfa_code_invalid' });
  t.is((await notices(merchant.id)).length, 1);
});

test.serial("another user's code is not this user's code", async (t) => {
  const { merchant, user } = await account();
  const colleague = await signIn(t0, { merchantId: merchant.id, role: 'admin' });
  const res = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(colleague) });
  // A colleague's current code could coincide by chance (1 in a million); the body names its secret, not ours.
  t.is(res.statusCode, 403);
});

test.serial('field rules: the type of the mode, the settlement currency, the account number; 400 naming the field without echoing it', async (t) => {
  const { user } = await account();
  const cases: [string, Record<string, unknown>, string][] = [
    ['test', simulated({ type: 'bank_account' }), 'type'],
    ['live', bankAccount({ type: 'simulated' }), 'type'],
    ['test', simulated({ type: 'card' }), 'type'],
    ['test', simulated({ currency: 'SGD' }), 'currency'],
    ['test', simulated({ account_holder: '   ' }), 'account_holder'],
    ['test', simulated({ bank_code: 'BANK CODE!' }), 'bank_code'],
    ['test', simulated({ account_number: '12ab' }), 'account_number'],
    ['test', simulated({ account_number: '1234567890123456789012345678901234567890' }), 'account_number'],
    ['test', simulated({ account_number: 1234567890 }), 'account_number'],
    ['test', simulated({ account_number: undefined }), 'account_number'],
    ['test', simulated({ iban: 'TH00123' }), 'iban'],
  ];
  for (const [mode, body, param] of cases) {
    const res = await as(user, 'POST', `/dashboard/v1/payout_methods?mode=${mode}`, { ...body, code: freshCode(user) });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 400, param }, `${mode} ${param}`);
    const number = body.account_number;
    if (typeof number === 'string' && number.length >= 6) t.false(res.payload.includes(number), 'no echo');
  }
});

test.serial('a refused destination spends no one-time code: the same code then adds the corrected one', async (t) => {
  const { user } = await account();
  const code = freshCode(user);
  const refused = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated({ type: 'bank_account' }), code });
  t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 400, param: 'type' });
  const added = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code });
  t.is(added.statusCode, 201, added.payload);
});

test.serial('live mode: a bank account starts unverified, arms the 24-hour hold, and cannot become the default (409)', async (t) => {
  const { merchant, user } = await account();
  const res = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=live', { ...bankAccount(), code: freshCode(user) });
  t.is(res.statusCode, 201);
  const created = apiObjectAt(res.result);
  t.like(created, { mode: 'live', type: 'bank_account', status: 'unverified', default: false, account_number: '****1098' });
  t.is(created.hold_until, new Date(clock.now().getTime() + 24 * 3600_000).toISOString().replace('.000Z', 'Z'));
  t.false(res.payload.includes('987654321098'));

  const refused = await as(user, 'POST', `/dashboard/v1/payout_methods/${created.id}/default?mode=live`, { code: freshCode(user) });
  t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 409, code: 'destination_unverified' });
  t.false(apiObjectsAt((await as(user, 'GET', '/dashboard/v1/payout_methods?mode=live')).result, 'data')[0]?.default);
  t.deepEqual(
    (await notices(merchant.id)).map((n) => n.kind),
    ['payout_destination.registered'],
    'the refused change wrote no notice',
  );
});

test.serial('test mode: the default moves with a code; the old default loses it; a notice is written', async (t) => {
  const { merchant, user } = await account();
  const first = apiObjectAt((await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(user) })).result);
  const second = apiObjectAt(
    (await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated({ account_number: '2222-3333-4444' }), code: freshCode(user) })).result,
  );
  t.true(first.default);
  t.false(second.default);

  const noCode = await as(user, 'POST', `/dashboard/v1/payout_methods/${second.id}/default?mode=test`);
  t.like({ status: noCode.statusCode, ...errorOf(noCode) }, { status: 403, code: 'mfa_code_invalid' });
  t.is((await notices(merchant.id)).length, 2);

  const res = await as(user, 'POST', `/dashboard/v1/payout_methods/${second.id}/default?mode=test`, { code: freshCode(user) });
  t.is(res.statusCode, 200);
  t.like(res.result, { id: second.id, default: true, account_number: '****4444' });
  t.false('hold_until' in objectAt(res.result));
  const listed = apiObjectsAt((await as(user, 'GET', '/dashboard/v1/payout_methods?mode=test')).result, 'data');
  t.deepEqual(
    listed.map((d) => [d.id, d.default]),
    [
      [second.id, true],
      [first.id, false],
    ],
  );
  const [latest] = await notices(merchant.id);
  t.like(latest, { kind: 'payout_destination.default_changed', details: { destination: second.id, account_last4: '4444' } });
  const [entry] = await t0.app.get<AuditLog>(AuditLog).listForMerchant(merchant.id, 1);
  t.like(entry, { action: 'payout_methods.write', objectId: second.id, details: { change: 'default_changed' } });
});

test.serial("tenancy: another merchant's destination, or another mode's, is 404; a malformed id is 400", async (t) => {
  const { user } = await account();
  const { user: stranger } = await account();
  const mine = apiObjectAt((await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(user) })).result);
  const theirs = await as(stranger, 'POST', `/dashboard/v1/payout_methods/${mine.id}/default?mode=test`, { code: freshCode(stranger) });
  t.like({ status: theirs.statusCode, ...errorOf(theirs) }, { status: 404, code: 'resource_not_found' });
  t.deepEqual(listAt((await as(stranger, 'GET', '/dashboard/v1/payout_methods?mode=test')).result, 'data'), []);
  const otherMode = await as(user, 'POST', `/dashboard/v1/payout_methods/${mine.id}/default?mode=live`, { code: freshCode(user) });
  t.is(otherMode.statusCode, 404);
  const malformed = await as(user, 'POST', '/dashboard/v1/payout_methods/1234567890/default?mode=test', { code: freshCode(user) });
  t.like({ status: malformed.statusCode, ...errorOf(malformed) }, { status: 400, param: 'id' });
  t.false(malformed.payload.includes('1234567890'));
});

test.serial('roles: developers and viewers read destinations but cannot change them', async (t) => {
  const { merchant } = await account();
  for (const role of ['developer', 'viewer'] as const) {
    const user = await signIn(t0, { merchantId: merchant.id, role });
    t.is((await as(user, 'GET', '/dashboard/v1/payout_methods?mode=test')).statusCode, 200);
    const res = await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(user) });
    t.like({ status: res.statusCode, ...errorOf(res) }, { status: 403, code: 'forbidden' });
  }
});

test.serial("the worker's drain sends pending notices and marks them sent", async (t) => {
  const { merchant, user } = await account();
  await as(user, 'POST', '/dashboard/v1/payout_methods?mode=test', { ...simulated(), code: freshCode(user) });
  const outbox = t0.app.get<NoticeOutbox>(NoticeOutbox);
  t.true((await outbox.pending(1000)).some((n) => n.merchantId === merchant.id));
  t.true((await runJob(t0.app, DeliverNotices, 1000)).progressed >= 1);
  t.false((await outbox.pending(1000)).some((n) => n.merchantId === merchant.id));
  t.truthy((await notices(merchant.id))[0]?.sentAt);
});
