import test from 'ava';
import { DisputeRepository, Ledger, merchantBalance, type Dispute } from '@payments/core';
import { KnexSimulatorOrderBook, sign, SIGNATURE_HEADER } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { createKnex } from '@payments/storage-sql';
import { AppConfig, simulatorCallbackSecret } from '../src/container';
import type { Config } from '../src/config';
import { paymentFlow, withMerchantFlow } from './helpers/payment-flow';
import { unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { moneyTick } from './helpers/worker-tick';
import { apiObjectAt, apiObjectsAt, jsonAt, keysAt, numberAt, textAt, type ApiObject } from './helpers/json';

const clock = new FakeClock(new Date());
const WEEK_MS = 7 * 24 * 3600 * 1000;
let t0: TestApp;
let shop: TestMerchant;
let flow: ReturnType<typeof paymentFlow>;

withMerchantFlow({ clock }, (started) => ({ t0, shop, flow } = started));

const tick = moneyTick(() => t0, clock);

/** A test merchant's flow of its own, so balances start at zero. */
async function newShop(): Promise<{ shop: TestMerchant; flow: ReturnType<typeof paymentFlow> }> {
  const merchant = await t0.merchant();
  return { shop: merchant, flow: paymentFlow(t0, merchant.testKey) };
}

async function paidIntent(f: ReturnType<typeof paymentFlow>, amount = 10000): Promise<ApiObject> {
  const intent = await f.createIntent({ amount });
  await f.attempt(intent.id);
  const paid = await f.simulate(intent.id, { outcome: 'succeeded' });
  if (jsonAt(paid.result, 'status') !== 'succeeded') throw new Error(`payment did not succeed: ${paid.payload}`);
  return apiObjectAt(paid.result);
}

async function disputesOf(f: ReturnType<typeof paymentFlow>, intentId: string): Promise<ApiObject[]> {
  return apiObjectsAt(await f.get('/v1/disputes?limit=100'), 'data').filter((dispute) => dispute.payment_intent === intentId);
}

const thb = (amount: number) => [{ amount, currency: 'THB' }];

test.serial('dispute_opened holds the net from pending, shows the whole ordered amount and emits dispute.opened', async (t) => {
  const { flow: f } = await newShop();
  const intent = await paidIntent(f, 10000);
  const net = numberAt(intent, 'net', 'amount');
  t.like(await f.get('/v1/balance'), { pending: thb(net), dispute_hold: thb(0) });

  const opened = await f.simulate(intent.id, { outcome: 'dispute_opened' });
  t.is(opened.statusCode, 200);
  t.like(opened.result, { id: intent.id, object: 'payment_intent', status: 'succeeded' });

  const [dispute] = await disputesOf(f, intent.id);
  t.truthy(dispute);
  t.regex(dispute.id, /^dp_[0-9A-Za-z]+$/);
  t.like(dispute, {
    object: 'dispute',
    payment_intent: intent.id,
    status: 'opened',
    amount: 10000,
    currency: 'THB',
    held: { amount: net, currency: 'THB' },
    evidence: {},
  });
  t.is(dispute.fee, undefined);
  t.is(dispute.closed_at, undefined);
  t.is(Date.parse(textAt(dispute, 'due_by')) - Date.parse(textAt(dispute, 'opened_at')), WEEK_MS);
  t.deepEqual(await f.get(`/v1/disputes/${dispute.id}`), dispute);
  t.like(await f.get('/v1/balance'), { available: thb(0), pending: thb(0), dispute_hold: thb(net) });

  const events = apiObjectsAt(await f.get('/v1/events?limit=100'), 'data').filter((event) => jsonAt(event, 'data', 'id') === dispute.id);
  t.is(events.length, 1);
  t.like(events[0], { type: 'dispute.opened', data: { id: dispute.id, object: 'dispute', status: 'opened', mode: 'test' } });
});

test.serial('evidence merges key by key, puts the dispute under review, emits dispute.updated and replays under its key', async (t) => {
  const { flow: f } = await newShop();
  const intent = await paidIntent(f);
  await f.simulate(intent.id, { outcome: 'dispute_opened' });
  const [dispute] = await disputesOf(f, intent.id);

  const key = unique();
  const first = await f.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { receipt: 'r-1', note: 'shipped' } }, key);
  t.is(first.statusCode, 200);
  t.like(first.result, { id: dispute.id, status: 'under_review', evidence: { receipt: 'r-1', note: 'shipped' } });
  const replay = await f.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { receipt: 'r-1', note: 'shipped' } }, key);
  t.is(replay.statusCode, 200);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(replay.payload, first.payload);
  const reused = await f.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { other: 'x' } }, key);
  t.is(reused.statusCode, 422);
  t.like(reused.result, { error: { code: 'idempotency_key_reused' } });

  const second = await f.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { note: 'delivered', tracking: 'TH123' } });
  t.is(second.statusCode, 200);
  t.deepEqual(jsonAt(second.result, 'evidence'), { receipt: 'r-1', note: 'delivered', tracking: 'TH123' });
  t.like(await f.get(`/v1/disputes/${dispute.id}`), { status: 'under_review', evidence: { receipt: 'r-1', note: 'delivered', tracking: 'TH123' } });

  const types = await f.eventTypes(dispute.id);
  t.deepEqual(types, ['dispute.opened', 'dispute.updated', 'dispute.updated']);
});

test.serial('evidence body rules: object of strings, at most 50 keys of 40 characters and values of 5000, an Idempotency-Key', async (t) => {
  const intent = await paidIntent(flow);
  await flow.simulate(intent.id, { outcome: 'dispute_opened' });
  const [dispute] = await disputesOf(flow, intent.id);
  const url = `/v1/disputes/${dispute.id}/evidence`;
  const bad: unknown[] = [
    {},
    { evidence: 'text' },
    { evidence: {} },
    { evidence: { n: 1 } },
    { evidence: { ['k'.repeat(41)]: 'v' } },
    { evidence: { k: 'v'.repeat(5001) } },
    { evidence: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
    { evidence: { k: 'v' }, extra: true },
  ];
  for (const payload of bad) {
    const res = await flow.post(url, payload);
    t.is(res.statusCode, 400, JSON.stringify(payload).slice(0, 80));
    t.is(jsonAt(res.result, 'error', 'code'), 'invalid_parameter');
  }
  const noKey = await t0.request({ method: 'POST', url, key: shop.testKey, payload: { evidence: { k: 'v' } } });
  t.is(noKey.statusCode, 400);
  t.like(noKey.result, { error: { code: 'idempotency_key_required' } });
  // 50 keys pass, and a merge past 50 in all is refused without storing anything.
  const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
  t.is((await flow.post(url, { evidence: fifty })).statusCode, 200);
  const over = await flow.post(url, { evidence: { another: 'v' } });
  t.is(over.statusCode, 400);
  t.like(over.result, { error: { code: 'invalid_parameter', param: 'evidence' } });
  t.is(keysAt(await flow.get(`/v1/disputes/${dispute.id}`), 'evidence').length, 50);
});

test.serial('dispute_won before release returns the hold to pending, closes the dispute and refuses more evidence', async (t) => {
  const { flow: f } = await newShop();
  const intent = await paidIntent(f);
  const net = numberAt(intent, 'net', 'amount');
  await f.simulate(intent.id, { outcome: 'dispute_opened' });
  const [dispute] = await disputesOf(f, intent.id);
  const won = await f.simulate(intent.id, { outcome: 'dispute_won' });
  t.is(won.statusCode, 200);
  t.like(won.result, { id: intent.id, status: 'succeeded' });
  const closed = await f.get(`/v1/disputes/${dispute.id}`);
  t.like(closed, { status: 'won', held: { amount: net, currency: 'THB' } });
  t.truthy(closed.closed_at);
  t.is(closed.fee, undefined);
  t.like(await f.get('/v1/balance'), { available: thb(0), pending: thb(net), dispute_hold: thb(0) });

  const late = await f.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { k: 'v' } });
  t.is(late.statusCode, 409);
  t.like(late.result, { error: { code: 'dispute_closed' } });
  for (const outcome of ['dispute_won', 'dispute_lost']) {
    const again = await f.simulate(intent.id, { outcome });
    t.is(again.statusCode, 409);
    t.like(again.result, { error: { code: 'invalid_state_transition' } });
  }
  const types = await f.eventTypes(dispute.id);
  t.deepEqual(types, ['dispute.opened', 'dispute.closed']);
});

test.serial('after release, dispute_lost takes the hold from available and debits the dispute fee; available may go negative', async (t) => {
  const { flow: f } = await newShop();
  const intent = await paidIntent(f);
  const net = numberAt(intent, 'net', 'amount');
  await tick(); // the simulator settles the order
  await tick(); // channel_settled
  t.is((await f.advance(intent.id, 'release')).statusCode, 200);
  await tick(); // released
  t.like(await f.get('/v1/balance'), { available: thb(net), pending: thb(0) });

  await f.simulate(intent.id, { outcome: 'dispute_opened' });
  t.like(await f.get('/v1/balance'), { available: thb(0), pending: thb(0), dispute_hold: thb(net) });
  const lost = await f.simulate(intent.id, { outcome: 'dispute_lost' });
  t.is(lost.statusCode, 200);
  t.like(lost.result, { status: 'channel_settled' });
  const [dispute] = await disputesOf(f, intent.id);
  t.like(dispute, { status: 'lost', held: { amount: net, currency: 'THB' }, fee: { amount: 1500, currency: 'THB' } });
  t.truthy(dispute.closed_at);
  t.like(await f.get('/v1/balance'), { available: thb(-1500), pending: thb(0), dispute_hold: thb(0) });
  const closed = apiObjectsAt(await f.get('/v1/events?limit=100'), 'data').find(
    (event) => jsonAt(event, 'data', 'id') === dispute.id && event.type === 'dispute.closed',
  );
  t.like(closed, { data: { status: 'lost', object: 'dispute' } });
  // The claim went back to the payer: nothing is left to dispute, and the net is not taken twice.
  const again = await f.simulate(intent.id, { outcome: 'dispute_opened' });
  t.is(again.statusCode, 409);
  t.like(again.result, { error: { code: 'invalid_state_transition' } });
  t.is((await disputesOf(f, intent.id)).length, 1);
  t.like(await f.get('/v1/balance'), { available: thb(-1500), pending: thb(0), dispute_hold: thb(0) });
});

test.serial('won after release returns the hold to available', async (t) => {
  const { flow: f } = await newShop();
  const intent = await paidIntent(f);
  const net = numberAt(intent, 'net', 'amount');
  await f.simulate(intent.id, { outcome: 'dispute_opened' });
  await tick();
  await tick();
  await f.advance(intent.id, 'release');
  await tick(); // released while the dispute holds the money: nothing moves
  t.like(await f.get('/v1/balance'), { available: thb(0), pending: thb(0), dispute_hold: thb(net) });
  await f.simulate(intent.id, { outcome: 'dispute_won' });
  t.like(await f.get('/v1/balance'), { available: thb(net), pending: thb(0), dispute_hold: thb(0) });
});

test.serial('simulated dispute rules: paid intents only, one open dispute, rulings need an open dispute, test keys only', async (t) => {
  const created = await flow.createIntent();
  const onCreated = await flow.simulate(created.id, { outcome: 'dispute_opened' });
  t.is(onCreated.statusCode, 409);
  t.like(onCreated.result, { error: { code: 'invalid_state_transition' } });
  await flow.attempt(created.id);
  const onPending = await flow.simulate(created.id, { outcome: 'dispute_opened' });
  t.like(onPending.result, { error: { code: 'invalid_state_transition' } });
  await flow.simulate(created.id, { outcome: 'failed' });
  t.like((await flow.simulate(created.id, { outcome: 'dispute_opened' })).result, { error: { code: 'invalid_state_transition' } });

  const paid = await paidIntent(flow);
  for (const outcome of ['dispute_won', 'dispute_lost']) {
    const res = await flow.simulate(paid.id, { outcome });
    t.is(res.statusCode, 409);
    t.like(res.result, { error: { code: 'invalid_state_transition' } });
  }
  const amount = await flow.simulate(paid.id, { outcome: 'dispute_opened', amount: 5 });
  t.is(amount.statusCode, 400);
  t.like(amount.result, { error: { code: 'invalid_parameter', param: 'amount' } });
  t.is((await flow.simulate(paid.id, { outcome: 'dispute_opened' })).statusCode, 200);
  const second = await flow.simulate(paid.id, { outcome: 'dispute_opened' });
  t.is(second.statusCode, 409);
  t.like(second.result, { error: { code: 'invalid_state_transition' } });
  t.is((await disputesOf(flow, paid.id)).length, 1);

  // The same Idempotency-Key replays the answer and opens nothing more.
  const other = await paidIntent(flow);
  const key = unique();
  const first = await flow.simulate(other.id, { outcome: 'dispute_opened' }, key);
  const replay = await flow.simulate(other.id, { outcome: 'dispute_opened' }, key);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(replay.payload, first.payload);
  t.is((await disputesOf(flow, other.id)).length, 1);

  const liveFlow = paymentFlow(t0, await shop.liveKey());
  const liveIntent = await liveFlow.createIntent();
  const live = await liveFlow.simulate(liveIntent.id, { outcome: 'dispute_opened' });
  t.is(live.statusCode, 403);
  t.like(live.result, { error: { code: 'test_mode_required' } });
});

test.serial('reads: a malformed id is 400, an unknown or foreign one 404; lists page newest first and filter by status', async (t) => {
  const { flow: f } = await newShop();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const intent = await paidIntent(f);
    await f.simulate(intent.id, { outcome: 'dispute_opened' });
    ids.push((await disputesOf(f, intent.id))[0].id);
  }
  const [firstIntentDispute] = ids;
  await f.post(`/v1/disputes/${firstIntentDispute}/evidence`, { evidence: { k: 'v' } });

  const page = await f.get('/v1/disputes?limit=2');
  t.like(page, { object: 'list', has_more: true });
  t.deepEqual(
    apiObjectsAt(page, 'data').map((d) => d.id),
    [ids[2], ids[1]],
  );
  const next = await f.get(`/v1/disputes?limit=2&starting_after=${ids[1]}`);
  t.deepEqual(
    apiObjectsAt(next, 'data').map((d) => d.id),
    [ids[0]],
  );
  t.false(next.has_more);
  const reviewing = await f.get('/v1/disputes?status=under_review');
  t.deepEqual(
    apiObjectsAt(reviewing, 'data').map((d) => d.id),
    [ids[0]],
  );
  const badStatus = await t0.request({ method: 'GET', url: '/v1/disputes?status=closed', key: (await newShop()).shop.testKey });
  t.is(badStatus.statusCode, 400);
  for (const query of ['limit=0', 'limit=101', 'starting_after=pi_123']) {
    const res = await t0.request({ method: 'GET', url: `/v1/disputes?${query}`, key: shop.testKey });
    t.is(res.statusCode, 400, query);
    t.like(res.result, { error: { code: 'invalid_parameter' } });
  }
  const unknownCursor = await t0.request({ method: 'GET', url: '/v1/disputes?starting_after=dp_unknown1', key: shop.testKey });
  t.like(unknownCursor.result, { error: { code: 'invalid_parameter', param: 'starting_after' } });

  const malformed = await t0.request({ method: 'GET', url: '/v1/disputes/pi_123', key: shop.testKey });
  t.is(malformed.statusCode, 400);
  t.like(malformed.result, { error: { code: 'invalid_parameter', param: 'id' } });
  const malformedEvidence = await flow.post('/v1/disputes/dp-1/evidence', { evidence: { k: 'v' } });
  t.is(malformedEvidence.statusCode, 400);
  const unknown = await t0.request({ method: 'GET', url: '/v1/disputes/dp_doesnotexist', key: shop.testKey });
  t.is(unknown.statusCode, 404);
  t.like(unknown.result, { error: { code: 'resource_not_found' } });

  // Another merchant's dispute: 404 on read and on evidence, absent from its list.
  const foreign = await t0.request({ method: 'GET', url: `/v1/disputes/${ids[0]}`, key: shop.testKey });
  t.is(foreign.statusCode, 404);
  const foreignEvidence = await flow.post(`/v1/disputes/${ids[0]}/evidence`, { evidence: { k: 'v' } });
  t.is(foreignEvidence.statusCode, 404);
  t.false(apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').some((d) => ids.includes(d.id)));
  // The live mode of the same merchant sees none of its test disputes.
  const live = await t0.request({ method: 'GET', url: `/v1/disputes/${ids[0]}`, key: await (await t0.merchant()).liveKey() });
  t.is(live.statusCode, 404);
});

/** Sends the simulator's signed dispute notice for `channelDisputeId` to the callback route. */
function deliverNotice(body: Record<string, unknown>): Promise<{ statusCode: number; payload: string }> {
  const config = t0.app.get<Config>(AppConfig);
  const raw = JSON.stringify(body);
  const signature = sign(simulatorCallbackSecret(config.masterKey), Math.floor(clock.now().getTime() / 1000), raw);
  return t0.server.inject({
    method: 'POST',
    url: '/channels/simulator/callback/test',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
    payload: raw,
  });
}

async function storedDispute(scopeShop: TestMerchant, id: string): Promise<Dispute> {
  return (await t0.app.get<DisputeRepository>(DisputeRepository).findById({ merchantId: scopeShop.id, mode: 'test' }, id))!;
}

test.serial('a dispute notice replayed 20 times in parallel records one dispute and posts once; so does a ruling', async (t) => {
  const { shop: s, flow: f } = await newShop();
  const intent = await paidIntent(f);
  const net = numberAt(intent, 'net', 'amount');
  const scope = { merchantId: s.id, mode: 'test' as const };
  const attempt = (await f.attempts(intent.id))[0];
  // The channel opens a dispute we have not heard of yet: written straight into its book.
  const config = t0.app.get<Config>(AppConfig);
  const knex = createKnex(config.databaseUrl);
  try {
    const book = new KnexSimulatorOrderBook(knex);
    const orders = await knex('simulator_orders').where({ reference: attempt.id }).first<{ id: string }>();
    const channelDisputeId = `sdp_replay${Date.now()}`;
    const now = clock.now();
    await book.insertDispute({
      id: channelDisputeId,
      orderId: orders.id,
      reference: attempt.id,
      mode: 'test',
      status: 'opened',
      amount: 10000,
      currency: 'THB',
      created: now,
      updated: now,
    });
    const notice = { type: 'dispute', id: channelDisputeId, order_id: orders.id, reference: attempt.id, status: 'opened', amount: 10000, currency: 'THB' };

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliverNotice(notice)));
    t.deepEqual(
      answers.map((res) => res.statusCode),
      answers.map(() => 200),
      answers.map((res) => res.payload.slice(0, 120)).join('\n'),
    );
    const disputes = await disputesOf(f, intent.id);
    t.is(disputes.length, 1);
    const ledger = t0.app.get<Ledger>(Ledger);
    t.like(merchantBalance(await ledger.balances(scope)), {
      pending: [{ amount: 0n, currency: 'THB' }],
      dispute_hold: [{ amount: BigInt(net), currency: 'THB' }],
    });
    t.true(await ledger.hasPosted(`dispute_opened:${disputes[0].id}`));

    // The channel rules; its notice arrives 20 times at once.
    const stored = await book.findDispute(channelDisputeId);
    await book.updateDispute({ ...stored!, status: 'lost', updated: clock.now() });
    const rulings = await Promise.all(Array.from({ length: 20 }, () => deliverNotice({ ...notice, status: 'lost' })));
    t.true(rulings.every((res) => res.statusCode === 200));
    t.like(merchantBalance(await ledger.balances(scope)), {
      available: [{ amount: -1500n, currency: 'THB' }],
      pending: [{ amount: 0n, currency: 'THB' }],
      dispute_hold: [{ amount: 0n, currency: 'THB' }],
    });
    const row = await storedDispute(s, disputes[0].id);
    t.like(row, { status: 'lost', fee: { amount: 1500, currency: 'THB' }, channel: 'simulator', channelDisputeId });
    t.deepEqual((await f.eventTypes(row.id)).sort(), ['dispute.closed', 'dispute.opened']);
  } finally {
    await knex.destroy();
  }
});

test.serial('a notice whose query names an order we do not know, or a forged one, changes nothing', async (t) => {
  const forged = await t0.server.inject({
    method: 'POST',
    url: '/channels/simulator/callback/test',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: 't=1,v1=00' },
    payload: JSON.stringify({ type: 'dispute', id: 'sdp_x' }),
  });
  t.is(forged.statusCode, 401);
  const unknown = await deliverNotice({ type: 'dispute', id: 'sdp_nothing_here' });
  t.true(unknown.statusCode >= 400);
});
