import test from 'ava';
import { CreateMerchant, MerchantRepository, VerifyLedger } from '@payments/core';
import { apiObjectAt, apiObjectsAt, jsonAt, listAt, numberAt, textAt, type ApiObject } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { signIn } from './helpers/dashboard';
import { unique } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

const { app, tick } = appOnFakeClock();

type Flow = ReturnType<typeof paymentFlow>;

/** A new shop (its balance starts at zero), settling in `settlementCurrency`, on a manual schedule. */
async function shop(settlementCurrency = 'THB'): Promise<{ flow: Flow; key: string; merchantId: string }> {
  const suffix = unique('refund');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency });
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(created.merchant.id, { settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  return { flow: paymentFlow(app(), key), key, merchantId: created.merchant.id };
}

async function paidIntent(flow: Flow, overrides: { amount?: number; currency?: string; payment_method?: string } = {}): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount: 10_000, ...overrides });
  await flow.attempt(intent.id, { payment_method: overrides.payment_method ?? 'promptpay' });
  const paid = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (paid.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(paid)}`);
  return paid;
}

/** The intent's net in minor units of the settlement currency. */
const netOf = (intent: unknown): number => numberAt(intent, 'net', 'amount');

const refund = (flow: Flow, body: Record<string, unknown>, idempotencyKey?: string) => flow.post('/v1/refunds', body, idempotencyKey);
const bucket = async (flow: Flow, name: 'pending' | 'available' | 'dispute_hold'): Promise<number> => {
  const amounts = listAt(await flow.get('/v1/balance'), name);
  return amounts.length === 0 ? 0 : numberAt(amounts, 0, 'amount');
};
const halfEven = (x: number, net: number, amount: number): number => {
  const product = BigInt(x) * BigInt(net);
  const q = product / BigInt(amount);
  const r2 = (product % BigInt(amount)) * 2n;
  return Number(r2 > BigInt(amount) || (r2 === BigInt(amount) && q % 2n === 1n) ? q + 1n : q);
};

async function ledgerIsWhole(): Promise<boolean> {
  return (await app().app.get(VerifyLedger).execute({ limit: 20 })).ok;
}

test.serial('a partial refund: 201 pending, debits the share of the net from pending, raises amount_refunded, succeeds on the next tick', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const net = netOf(intent);
  t.is(intent.amount_refunded, 0);

  const res = await refund(flow, { payment_intent: intent.id, amount: 3_333, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } });
  t.is(res.statusCode, 201, res.payload);
  const created = apiObjectAt(res.result);
  t.regex(created.id, /^re_[A-Z2-7]+$/);
  t.like(created, {
    object: 'refund',
    mode: 'test',
    payment_intent: intent.id,
    amount: 3_333,
    currency: 'THB',
    status: 'pending',
    reason: 'requested_by_customer',
    metadata: { ticket: 'T-1' },
  });
  t.is(created.succeeded_at, undefined);
  const debit = halfEven(3_333, net, 10_000);
  t.is(await bucket(flow, 'pending'), net - debit);
  t.is((await flow.intent(intent.id)).amount_refunded, 3_333);

  await tick();
  const settled = await flow.get(`/v1/refunds/${created.id}`);
  t.like(settled, { id: created.id, status: 'succeeded' });
  t.truthy(settled.succeeded_at);
  t.deepEqual(await flow.eventTypes(created.id), ['refund.created', 'refund.succeeded']);
  const [event] = apiObjectsAt(await flow.get('/v1/events?limit=100'), 'data').filter(
    (e) => e.type === 'refund.succeeded' && jsonAt(e, 'data', 'id') === created.id,
  );
  t.like(event?.data, {
    id: created.id,
    object: 'refund',
    status: 'succeeded',
    mode: 'test',
    payment_intent: intent.id,
    amount: { amount: 3_333, currency: 'THB' },
  });
  t.true(await ledgerIsWhole());
});

test.serial('several partial refunds debit exactly the net in all, the amount defaults to the remainder, and nothing more can be refunded', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow, { amount: 9_999 });
  for (const amount of [1, 3_333, 3_333]) t.is((await refund(flow, { payment_intent: intent.id, amount })).statusCode, 201);
  const rest = await refund(flow, { payment_intent: intent.id });
  t.is(rest.statusCode, 201);
  t.is(numberAt(rest.result, 'amount'), 9_999 - 1 - 3_333 - 3_333);
  t.is(await bucket(flow, 'pending'), 0, 'the whole net was given back, not a rounding unit more or less');
  const over = await refund(flow, { payment_intent: intent.id, amount: 1 });
  t.is(over.statusCode, 409);
  t.like(over.result, { error: { code: 'refund_exceeds_remaining', param: 'amount' } });
  t.is((await flow.intent(intent.id)).amount_refunded, 9_999);
  const listed = await flow.get(`/v1/refunds?payment_intent=${intent.id}`);
  t.deepEqual(
    apiObjectsAt(listed, 'data').map((r) => r.amount),
    [9_999 - 6_667, 3_333, 3_333, 1],
    'newest first',
  );
  t.true(await ledgerIsWhole());
});

test.serial('a refund over the remainder is 409 refund_exceeds_remaining and changes nothing', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const before = await flow.get('/v1/balance');
  const res = await refund(flow, { payment_intent: intent.id, amount: 10_001 });
  t.is(res.statusCode, 409);
  t.like(res.result, { error: { code: 'refund_exceeds_remaining' } });
  t.deepEqual(await flow.get('/v1/balance'), before);
  t.deepEqual((await flow.get('/v1/refunds')).data, []);
});

test.serial('only a paid intent can be refunded: 409 invalid_state_transition otherwise', async (t) => {
  const { flow } = await shop();
  const created = await flow.createIntent({ amount: 10_000 });
  const res = await refund(flow, { payment_intent: created.id });
  t.is(res.statusCode, 409);
  t.like(res.result, { error: { code: 'invalid_state_transition' } });
  await flow.attempt(created.id);
  await flow.simulate(created.id, { outcome: 'failed' });
  t.is((await refund(flow, { payment_intent: created.id })).statusCode, 409);
});

test.serial('bad input is 400 in the envelope: amounts, reasons, unknown fields, ids, metadata', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const bad: Record<string, unknown>[] = [
    {},
    { payment_intent: 'nope' },
    { payment_intent: intent.id, amount: 0 },
    { payment_intent: intent.id, amount: -5 },
    { payment_intent: intent.id, amount: 1.5 },
    { payment_intent: intent.id, amount: '100' },
    { payment_intent: intent.id, amount: 2 ** 53 },
    { payment_intent: intent.id, reason: 'changed_mind' },
    { payment_intent: intent.id, metadata: { k: 1 } },
    { payment_intent: intent.id, extra: true },
  ];
  for (const body of bad) {
    const res = await refund(flow, body);
    t.is(res.statusCode, 400, JSON.stringify(body));
    t.truthy(textAt(res.result, 'error', 'code'), JSON.stringify(body));
  }
  t.is((await flow.intent(intent.id)).amount_refunded, 0);
});

test.serial('another merchant or the other mode sees 404: the intent to refund, the refund and the list', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const made = apiObjectAt((await refund(flow, { payment_intent: intent.id, amount: 100 })).result);
  const other = await shop();
  t.is((await refund(other.flow, { payment_intent: intent.id })).statusCode, 404);
  t.is((await app().request({ method: 'GET', url: `/v1/refunds/${made.id}`, key: other.key })).statusCode, 404);
  t.deepEqual((await other.flow.get('/v1/refunds')).data, []);
  const liveKey = await (await app().merchant()).liveKey();
  t.is((await app().request({ method: 'GET', url: `/v1/refunds/${made.id}`, key: liveKey })).statusCode, 404);
});

test.serial('two concurrent refunds over the remainder: one wins, the other is 409, and the debit is booked once', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const net = netOf(intent);
  const results = await Promise.all([refund(flow, { payment_intent: intent.id, amount: 6_000 }), refund(flow, { payment_intent: intent.id, amount: 6_000 })]);
  t.deepEqual(results.map((r) => r.statusCode).sort(), [201, 409]);
  t.is(await bucket(flow, 'pending'), net - halfEven(6_000, net, 10_000));
  t.is((await flow.intent(intent.id)).amount_refunded, 6_000);
  t.true(await ledgerIsWhole());
});

test.serial('a failed refund (amounts ending in 06) gives the debit back and lowers amount_refunded', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const net = netOf(intent);
  const made = apiObjectAt((await refund(flow, { payment_intent: intent.id, amount: 1_006 })).result);
  t.is(await bucket(flow, 'pending'), net - halfEven(1_006, net, 10_000));
  await tick();
  t.like(await flow.get(`/v1/refunds/${made.id}`), { status: 'failed', failure_code: 'channel_declined' });
  t.is(await bucket(flow, 'pending'), net);
  t.is((await flow.intent(intent.id)).amount_refunded, 0);
  t.deepEqual(await flow.eventTypes(made.id), ['refund.created', 'refund.failed']);
  // The whole amount can be refunded again.
  t.is((await refund(flow, { payment_intent: intent.id })).statusCode, 201);
  t.true(await ledgerIsWhole());
});

test.serial('simulate: a pending refund fails with the code told, a final one is 409, a live key is 403', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const made = apiObjectAt((await refund(flow, { payment_intent: intent.id, amount: 2_000 })).result);
  const key = unique();
  const failed = await flow.post(`/v1/test/refunds/${made.id}/simulate`, { outcome: 'failed', failure_code: 'insufficient_channel_funds' }, key);
  t.is(failed.statusCode, 200, failed.payload);
  t.like(failed.result, { id: made.id, status: 'failed', failure_code: 'insufficient_channel_funds' });
  const replay = await flow.post(`/v1/test/refunds/${made.id}/simulate`, { outcome: 'failed', failure_code: 'insufficient_channel_funds' }, key);
  t.is(replay.payload, failed.payload);
  const again = await flow.post(`/v1/test/refunds/${made.id}/simulate`, { outcome: 'succeeded' });
  t.is(again.statusCode, 409);
  t.like(again.result, { error: { code: 'invalid_state_transition' } });
  const badCode = await flow.post(`/v1/test/refunds/${made.id}/simulate`, { outcome: 'succeeded', failure_code: 'channel_declined' });
  t.is(badCode.statusCode, 400);
  const liveKey = await (await app().merchant()).liveKey();
  const live = await app().request({
    method: 'POST',
    url: `/v1/test/refunds/${made.id}/simulate`,
    key: liveKey,
    idempotencyKey: unique(),
    payload: { outcome: 'succeeded' },
  });
  t.true(live.statusCode === 403 || live.statusCode === 404);
  t.is((await flow.intent(intent.id)).amount_refunded, 0);
});

test.serial('an open dispute is 409 payment_disputed; a won one allows refunds again; a lost one leaves nothing to refund', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  await flow.simulate(intent.id, { outcome: 'dispute_opened' });
  const disputed = await refund(flow, { payment_intent: intent.id, amount: 100 });
  t.is(disputed.statusCode, 409);
  t.like(disputed.result, { error: { code: 'payment_disputed' } });
  await flow.simulate(intent.id, { outcome: 'dispute_won' });
  t.is((await refund(flow, { payment_intent: intent.id, amount: 100 })).statusCode, 201);

  const lostOne = await paidIntent(flow);
  await flow.simulate(lostOne.id, { outcome: 'dispute_opened' });
  await flow.simulate(lostOne.id, { outcome: 'dispute_lost' });
  const lost = await refund(flow, { payment_intent: lostOne.id, amount: 100 });
  t.is(lost.statusCode, 409);
  t.like(lost.result, { error: { code: 'refund_exceeds_remaining' } });
  t.true(await ledgerIsWhole());
});

test.serial('a refund racing a dispute: the dispute holds only what the refund left, and a loss takes no more than that', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const net = netOf(intent);
  await refund(flow, { payment_intent: intent.id, amount: 4_000 });
  await flow.simulate(intent.id, { outcome: 'dispute_opened' });
  const debit = halfEven(4_000, net, 10_000);
  t.is(await bucket(flow, 'dispute_hold'), net - debit);
  t.is(await bucket(flow, 'pending'), 0);
  await flow.simulate(intent.id, { outcome: 'dispute_lost' });
  await tick();
  t.is(await bucket(flow, 'dispute_hold'), 0);
  t.is(await bucket(flow, 'pending'), 0);
  t.true(await ledgerIsWhole());
});

test.serial('a refund of a released payment drives available negative, and the next settlement nets it', async (t) => {
  const { flow, key } = await shop();
  const first = await paidIntent(flow);
  await tick();
  await tick();
  await flow.advance(first.id, 'release');
  await tick();
  const net = netOf(first);
  t.is(await bucket(flow, 'available'), net);
  const settled = await app().request({ method: 'POST', url: '/v1/settlements', key, idempotencyKey: unique() });
  t.is(settled.statusCode, 201, settled.payload);
  t.is(await bucket(flow, 'available'), 0);

  await refund(flow, { payment_intent: first.id });
  await tick();
  t.is(await bucket(flow, 'available'), -net, 'the whole net leaves available after it was paid out');

  const second = await paidIntent(flow, { amount: 30_000 });
  await tick();
  await tick();
  await flow.advance(second.id, 'release');
  await tick();
  const net2 = netOf(second);
  const next = await app().request({ method: 'POST', url: '/v1/settlements', key, idempotencyKey: unique() });
  t.is(next.statusCode, 201, next.payload);
  t.like(next.result, { amount: { amount: net2 - net, currency: 'THB' } });
  t.is(await bucket(flow, 'available'), 0);
  t.true(await ledgerIsWhole());
});

test.serial('a refund of an unreleased payment comes out of pending, and the release moves only the rest', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const net = netOf(intent);
  await refund(flow, { payment_intent: intent.id, amount: 2_500 });
  await tick();
  await tick();
  await flow.advance(intent.id, 'release');
  await tick();
  t.is(await bucket(flow, 'pending'), 0);
  t.is(await bucket(flow, 'available'), net - halfEven(2_500, net, 10_000));
  t.true(await ledgerIsWhole());
});

test.serial('an FX payment: the refund is in the intent currency, the debit its share of the net in the settlement currency', async (t) => {
  const { flow } = await shop('THB');
  const intent = await paidIntent(flow, { amount: 12_345, currency: 'USD', payment_method: 'alipay_plus' });
  // Wallets lock their rate when the channel settles: before that there is no net to take a share of.
  const early = await refund(flow, { payment_intent: intent.id, amount: 1_000 });
  t.is(early.statusCode, 409);
  t.like(early.result, { error: { code: 'invalid_state_transition' } });
  await tick();
  await tick();
  const priced = await flow.intent(intent.id);
  t.is(priced.status, 'channel_settled');
  const net = netOf(priced);
  t.is(textAt(priced, 'net', 'currency'), 'THB');
  const made = await refund(flow, { payment_intent: intent.id, amount: 1_000 });
  t.is(made.statusCode, 201, made.payload);
  t.like(made.result, { amount: 1_000, currency: 'USD' });
  t.is(await bucket(flow, 'pending'), net - halfEven(1_000, net, 12_345));
  t.true(await ledgerIsWhole());
});

test.serial('idempotent: a retried create answers the same refund and books once', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const key = unique();
  const first = await refund(flow, { payment_intent: intent.id, amount: 500 }, key);
  const second = await refund(flow, { payment_intent: intent.id, amount: 500 }, key);
  t.is(second.payload, first.payload);
  t.is(second.headers['idempotent-replayed'], 'true');
  t.is((await flow.intent(intent.id)).amount_refunded, 500);
  t.is(listAt(await flow.get('/v1/refunds'), 'data').length, 1);
});

test.serial("the dashboard lists an intent's refunds for every role, per mode; another merchant's intent is 404", async (t) => {
  const { flow, merchantId } = await shop();
  const intent = await paidIntent(flow);
  await refund(flow, { payment_intent: intent.id, amount: 100 });
  await refund(flow, { payment_intent: intent.id, amount: 200 });
  const viewer = await signIn(app(), { merchantId, role: 'viewer' });
  const list = await app().request({ method: 'GET', url: `/dashboard/v1/payment_intents/${intent.id}/refunds?mode=test`, headers: { cookie: viewer.cookie } });
  t.is(list.statusCode, 200, list.payload);
  t.deepEqual(
    apiObjectsAt(list.result, 'data').map((r) => [r.object, r.amount]),
    [
      ['refund', 200],
      ['refund', 100],
    ],
  );
  const live = await app().request({ method: 'GET', url: `/dashboard/v1/payment_intents/${intent.id}/refunds?mode=live`, headers: { cookie: viewer.cookie } });
  t.is(live.statusCode, 404);
  const other = await signIn(app(), { merchantId: (await shop()).merchantId, role: 'owner' });
  const foreign = await app().request({
    method: 'GET',
    url: `/dashboard/v1/payment_intents/${intent.id}/refunds?mode=test`,
    headers: { cookie: other.cookie },
  });
  t.is(foreign.statusCode, 404);
});
