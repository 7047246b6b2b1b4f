import test from 'ava';
import { AuditLog, CreateMerchant, MerchantRepository, type SettlementSchedule, type UserRole } from '@payments/core';
import { asUser, errorOf, signIn, type SignedInUser } from './helpers/dashboard';
import { apiObjectAt, apiObjectsAt, listAt, numberAt, textAt, type ApiObject } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { unique, type TestResponse } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

/*
 * The dashboard's writes of money: a refund, dispute evidence, "pay out now". Owner and admin
 * only; each runs once per Idempotency-Key, a key of the user's own that never meets an API
 * caller's; each is audited.
 */

const { app, tick } = appOnFakeClock();

type Flow = ReturnType<typeof paymentFlow>;

interface Shop {
  readonly flow: Flow;
  readonly merchantId: string;
  readonly as: (role: UserRole) => Promise<SignedInUser>;
}

async function shop(schedule: SettlementSchedule = 'manual'): Promise<Shop> {
  const suffix = unique('writes');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery' });
  const merchantId = created.merchant.id;
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(merchantId, { settlementSchedule: schedule });
  return { flow: paymentFlow(app(), created.testApiKey.secret), merchantId, as: (role) => signIn(app(), { merchantId, role }) };
}

async function paidIntent(flow: Flow): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount: 10_000 });
  await flow.attempt(intent.id);
  const paid = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (paid.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(paid)}`);
  return paid;
}

/** A dashboard POST, with `key` as its Idempotency-Key unless it is null. */
function post(user: { cookie: string }, url: string, payload: unknown, key: string | null = unique('dash')): Promise<TestResponse> {
  return asUser(app(), user, { method: 'POST', url, payload, headers: key === null ? {} : { 'idempotency-key': key } });
}

async function auditActions(merchantId: string): Promise<string[]> {
  return (await app().app.get<AuditLog>(AuditLog).listForMerchant(merchantId, 50)).map((entry) => `${entry.action} ${entry.objectId}`);
}

test.serial('a refund: 201 as POST /v1/refunds answers it; the same key and body replay it; another body is 422; audited', async (t) => {
  const { flow, merchantId, as } = await shop();
  const intent = await paidIntent(flow);
  const owner = await as('owner');
  const key = unique('refund');

  const made = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 2_500, reason: 'requested_by_customer' }, key);
  t.is(made.statusCode, 201, made.payload);
  const refund = apiObjectAt(made.result);
  t.like(refund, { object: 'refund', mode: 'test', payment_intent: intent.id, amount: 2_500, status: 'pending', reason: 'requested_by_customer' });
  t.deepEqual(await flow.get(`/v1/refunds/${refund.id}`), refund, 'the /v1 shape');

  const again = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 2_500, reason: 'requested_by_customer' }, key);
  t.is(again.statusCode, 201);
  t.is(again.headers['idempotent-replayed'], 'true');
  t.is(again.payload, made.payload, 'a double click refunds once');
  const reused = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 100 }, key);
  t.like({ status: reused.statusCode, ...errorOf(reused) }, { status: 422, code: 'idempotency_key_reused' });
  t.is((await flow.intent(intent.id)).amount_refunded, 2_500);
  t.is(listAt(await flow.get('/v1/refunds'), 'data').length, 1);
  t.true((await auditActions(merchantId)).includes(`refunds.write ${refund.id}`));

  const admin = await as('admin');
  const rest = await post(admin, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id });
  t.is(rest.statusCode, 201, rest.payload);
  t.is(numberAt(rest.result, 'amount'), 7_500, 'left out, the amount is what remains');
  const over = await post(admin, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 1 });
  t.like({ status: over.statusCode, ...errorOf(over) }, { status: 409, code: 'refund_exceeds_remaining' }, 'the rules of /v1');
});

test.serial('refund refusals: viewer and developer 403 before anything; no key 400; bad body 400; another mode or merchant 404', async (t) => {
  const { flow, as } = await shop();
  const intent = await paidIntent(flow);
  for (const role of ['viewer', 'developer'] as const) {
    const user = await as(role);
    for (const key of [unique('k'), null]) {
      const refused = await post(user, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id }, key);
      t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 403, code: 'forbidden' }, `${role}, key ${String(key)}`);
    }
  }
  const owner = await as('owner');
  const noKey = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id }, null);
  t.like({ status: noKey.statusCode, ...errorOf(noKey) }, { status: 400, code: 'idempotency_key_required', param: 'Idempotency-Key' });
  const longKey = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id }, 'k'.repeat(256));
  t.like({ status: longKey.statusCode, ...errorOf(longKey) }, { status: 400, code: 'invalid_parameter', param: 'Idempotency-Key' });
  for (const [payload, param] of [
    [{ payment_intent: intent.id, metadata: { a: 'b' } }, 'metadata'],
    [{ payment_intent: intent.id, amount: '100' }, 'amount'],
    [{ amount: 100 }, 'payment_intent'],
  ] as const) {
    const bad = await post(owner, '/dashboard/v1/refunds?mode=test', payload);
    t.like({ status: bad.statusCode, ...errorOf(bad) }, { status: 400, param }, JSON.stringify(payload));
  }
  const noMode = await post(owner, '/dashboard/v1/refunds', { payment_intent: intent.id });
  t.like({ status: noMode.statusCode, ...errorOf(noMode) }, { status: 400, param: 'mode' });
  t.is((await post(owner, '/dashboard/v1/refunds?mode=live', { payment_intent: intent.id })).statusCode, 404);
  const stranger = await (await shop()).as('owner');
  t.is((await post(stranger, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id })).statusCode, 404);
  t.is((await flow.intent(intent.id)).amount_refunded, 0, 'nothing was refunded');
});

test.serial("a dashboard user's key is their own: the same key from an API caller or a teammate is another request", async (t) => {
  const { flow, as } = await shop();
  const intent = await paidIntent(flow);
  const key = unique('shared');
  const owner = await as('owner');
  const mine = await post(owner, '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 1_000 }, key);
  t.is(mine.statusCode, 201);
  const api = await flow.post('/v1/refunds', { payment_intent: intent.id, amount: 1_000 }, key);
  t.is(api.statusCode, 201, api.payload);
  t.is(api.headers['idempotent-replayed'], undefined);
  t.not(textAt(api.result, 'id'), textAt(mine.result, 'id'));
  const teammate = await post(await as('admin'), '/dashboard/v1/refunds?mode=test', { payment_intent: intent.id, amount: 1_000 }, key);
  t.is(teammate.statusCode, 201);
  t.not(textAt(teammate.result, 'id'), textAt(mine.result, 'id'));
  t.is((await flow.intent(intent.id)).amount_refunded, 3_000);
});

test.serial(
  'evidence: merged and under review as on /v1, replayed under its key, audited by its keys; a ruled dispute is 409; only owner and admin',
  async (t) => {
    const { flow, merchantId, as } = await shop();
    const intent = await paidIntent(flow);
    await flow.simulate(intent.id, { outcome: 'dispute_opened' });
    const [dispute] = apiObjectsAt(await flow.get('/v1/disputes'), 'data');
    const url = `/dashboard/v1/disputes/${dispute.id}/evidence?mode=test`;
    for (const role of ['viewer', 'developer'] as const) {
      const refused = await post(await as(role), url, { evidence: { note: 'x' } });
      t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 403, code: 'forbidden' }, role);
    }
    const admin = await as('admin');
    const key = unique('evidence');
    const sent = await post(admin, url, { evidence: { tracking: 'TH123', note: 'delivered' } }, key);
    t.is(sent.statusCode, 200, sent.payload);
    t.like(sent.result, { id: dispute.id, status: 'under_review', evidence: { tracking: 'TH123', note: 'delivered' } });
    t.deepEqual(await flow.get(`/v1/disputes/${dispute.id}`), apiObjectAt(sent.result));
    const again = await post(admin, url, { evidence: { tracking: 'TH123', note: 'delivered' } }, key);
    t.is(again.headers['idempotent-replayed'], 'true');
    t.is(again.payload, sent.payload);
    t.true((await auditActions(merchantId)).includes(`disputes.write ${dispute.id}`));
    const [entry] = await app().app.get<AuditLog>(AuditLog).listForMerchant(merchantId, 1);
    t.like(entry, { action: 'disputes.write', details: { keys: 'tracking,note' } });
    t.false(JSON.stringify(entry).includes('TH123'), 'the values stay out of the audit log');

    for (const [payload, param] of [
      [{ evidence: {} }, 'evidence'],
      [{ evidence: { note: 1 } }, 'evidence.note'],
      [{}, 'evidence'],
    ] as const) {
      const bad = await post(admin, url, payload);
      t.like({ status: bad.statusCode, ...errorOf(bad) }, { status: 400, code: 'invalid_parameter', param }, JSON.stringify(payload));
    }
    t.is((await post(admin, `/dashboard/v1/disputes/${dispute.id}/evidence?mode=live`, { evidence: { a: 'b' } })).statusCode, 404);

    await flow.simulate(intent.id, { outcome: 'dispute_won' });
    const late = await post(admin, url, { evidence: { more: 'y' } });
    t.like({ status: late.statusCode, ...errorOf(late) }, { status: 409, code: 'dispute_closed' });
  },
);

/** Available funds of one paid and released payment. */
async function releasedPayment(flow: Flow): Promise<ApiObject> {
  const intent = await paidIntent(flow);
  await tick();
  await tick();
  await flow.advance(intent.id, 'release');
  await tick();
  return intent;
}

test.serial('pay out now: 201 a settlement, paid at once in test mode; a double click pays once; then nothing is left (409); audited', async (t) => {
  const { flow, merchantId, as } = await shop('manual');
  const intent = await releasedPayment(flow);
  for (const role of ['viewer', 'developer'] as const) {
    const refused = await post(await as(role), '/dashboard/v1/settlements?mode=test', {});
    t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 403, code: 'forbidden' }, role);
  }
  const owner = await as('owner');
  const key = unique('payout');
  const [first, second] = await Promise.all([
    post(owner, '/dashboard/v1/settlements?mode=test', undefined, key),
    post(owner, '/dashboard/v1/settlements?mode=test', undefined, key),
  ]);
  const statuses = [first.statusCode, second.statusCode].sort();
  t.true(statuses[0] === 201 && [201, 409].includes(statuses[1]), `two clicks at once: ${statuses.join(', ')}`);
  const made = first.statusCode === 201 ? first : second;
  const settlement = apiObjectAt(made.result);
  t.like(settlement, { object: 'settlement', status: 'paid', amount: { amount: numberAt(intent, 'net', 'amount'), currency: 'THB' } });
  const replay = await post(owner, '/dashboard/v1/settlements?mode=test', {}, key);
  t.is(replay.statusCode, 201, 'an empty body and {} are the same request');
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(textAt(replay.result, 'id'), settlement.id);
  t.deepEqual(
    apiObjectsAt(await flow.get('/v1/settlements'), 'data').map((s) => s.id),
    [settlement.id],
    'one payout',
  );
  t.true((await auditActions(merchantId)).includes(`settlements.write ${settlement.id}`));

  const more = await post(await as('admin'), '/dashboard/v1/settlements?mode=test', {});
  t.like({ status: more.statusCode, ...errorOf(more) }, { status: 409, code: 'nothing_to_settle' });
  const withBody = await post(owner, '/dashboard/v1/settlements?mode=test', { amount: 5 });
  t.like({ status: withBody.statusCode, ...errorOf(withBody) }, { status: 400, code: 'invalid_parameter' });
});

test.serial("pay out now: an account on a schedule is 403; an API caller's request of the same key makes its own settlement", async (t) => {
  const daily = await shop('daily');
  await releasedPayment(daily.flow);
  const refused = await post(await daily.as('owner'), '/dashboard/v1/settlements?mode=test', {});
  t.like({ status: refused.statusCode, ...errorOf(refused) }, { status: 403, code: 'forbidden' });
  t.deepEqual(listAt(await daily.flow.get('/v1/settlements'), 'data'), []);

  const { flow, as } = await shop('manual');
  await releasedPayment(flow);
  const key = unique('same');
  const mine = await post(await as('owner'), '/dashboard/v1/settlements?mode=test', {}, key);
  t.is(mine.statusCode, 201, mine.payload);
  await releasedPayment(flow);
  const api = await flow.post('/v1/settlements', {}, key);
  t.is(api.statusCode, 201, api.payload);
  t.is(api.headers['idempotent-replayed'], undefined);
  t.not(textAt(api.result, 'id'), textAt(mine.result, 'id'), "the API's key finds no dashboard settlement");
  t.is(listAt(await flow.get('/v1/settlements'), 'data').length, 2);
});
