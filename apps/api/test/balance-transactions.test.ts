import test from 'ava';
import type { Knex } from 'knex';
import { CreateMerchant, MerchantRepository, merchantAccount, type AccountScope } from '@payments/core';
import { AppKnex } from '../src/modules/app-tokens';
import { asUser, signIn } from './helpers/dashboard';
import { apiObjectAt, apiObjectsAt, jsonAt, numberAt, objectAt, textAt, type ApiObject } from './helpers/json';
import { assertLedgerVerifies, assertLinesMatchBalance, assertMerchantMoney, lineTotals, listAll } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { unique } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

/*
 * Balance transactions (docs/balance-transactions.md) over real histories, through the routes, the
 * simulator and the worker's jobs, on SQLite or MariaDB: one line per movement of the merchant's
 * money, each adding up (`amount − fee = net`, its moves to its net), and all of them to the
 * balance, bucket by bucket.
 */

const { clock, app, tick } = appOnFakeClock();
const DISPUTE_FEE = 1500;
const DAY_MS = 24 * 3600 * 1000;

type Flow = ReturnType<typeof paymentFlow>;
interface Shop {
  readonly flow: Flow;
  readonly key: string;
  readonly scope: AccountScope;
}

async function shop(): Promise<Shop> {
  const suffix = unique('lines');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency: 'THB' });
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(created.merchant.id, { settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  return { flow: paymentFlow(app(), key), key, scope: { merchantId: created.merchant.id, mode: 'test' } };
}

async function paid(flow: Flow, amount: number, currency = 'THB', method = 'promptpay'): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount, currency, payment_method: method });
  await flow.attempt(intent.id, { payment_method: method });
  const result = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (result.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(result)}`);
  return result;
}

async function channelSettled(flow: Flow, id: string): Promise<ApiObject> {
  for (let i = 0; i < 3 && (await flow.intent(id)).status !== 'channel_settled'; i += 1) await tick();
  const intent = await flow.intent(id);
  if (intent.status !== 'channel_settled') throw new Error(`setup: ${id} is ${String(intent.status)}`);
  return intent;
}

async function released(flow: Flow, id: string): Promise<void> {
  await channelSettled(flow, id);
  if ((await flow.advance(id, 'release')).statusCode !== 200) throw new Error('setup: release refused');
  await tick();
}

async function refund(flow: Flow, intentId: string, amount: number): Promise<ApiObject> {
  const res = await flow.post('/v1/refunds', { payment_intent: intentId, amount });
  if (res.statusCode !== 201) throw new Error(`refund refused: ${res.payload}`);
  return apiObjectAt(res.result);
}

const lines = (flow: Flow, query = ''): Promise<ApiObject[]> => listAll(flow, `/v1/balance_transactions${query}`);

function one(all: readonly ApiObject[], type: string, source?: string): ApiObject {
  const found = all.filter((line) => line.type === type && (source === undefined || line.source === source));
  if (found.length !== 1) throw new Error(`expected one ${type} line${source ? ` of ${source}` : ''}, found ${found.length}: ${JSON.stringify(all)}`);
  return found[0];
}

const moves = (pending: number, available: number, dispute_hold: number) => ({ pending, available, dispute_hold });

async function booksAgree(shop: Shop): Promise<void> {
  await assertLedgerVerifies(app());
  await assertMerchantMoney(app(), shop.flow, { scope: shop.scope, key: shop.key, currency: 'THB' });
  await assertLinesMatchBalance(app(), shop.flow, shop.key);
}

test.serial('a payment, its release, a partial refund, a failed refund and a payout: one line each, adding up to the balance', async (t) => {
  const s = await shop();
  const { flow } = s;
  const intent = await paid(flow, 30_000);
  const [net, fee] = [numberAt(intent, 'net', 'amount'), numberAt(intent, 'fee', 'amount')];

  let all = await lines(flow);
  t.is(all.length, 1);
  const payment = one(all, 'payment');
  t.like(payment, {
    object: 'balance_transaction',
    amount: 30_000,
    fee,
    net,
    currency: 'THB',
    moves: moves(net, 0, 0),
    source: intent.id,
    payment_intent: intent.id,
  });
  t.regex(payment.id, /^txn_[1-9][0-9]*$/);
  t.is(payment.available_on, undefined, 'no release is scheduled before the channel settles the payment');
  t.is(payment.exchange, undefined, 'paid in the settlement currency');

  const settled = await channelSettled(flow, intent.id);
  t.is(one(await lines(flow), 'payment').available_on, textAt(settled, 'available_at'), 'once the channel settled it, the release is due then');

  clock.advance(DAY_MS);
  await released(flow, intent.id);
  all = await lines(flow);
  const release = one(all, 'release');
  t.like(release, { amount: 0, fee: 0, net: 0, moves: moves(-net, net, 0), source: intent.id, payment_intent: intent.id });
  t.is(release.available_on, release.created);
  t.is(one(all, 'payment').available_on, release.created, 'a released payment is available from its release');
  t.deepEqual(
    all.map((line) => line.id),
    [release.id, payment.id],
    'newest first',
  );

  const partial = await refund(flow, intent.id, 10_000);
  const refundLine = one(await lines(flow), 'refund', partial.id);
  const debit = -numberAt(refundLine, 'net');
  t.true(debit > 0 && debit < 10_000, 'the merchant gives back its share of the net');
  t.like(refundLine, { amount: -10_000, fee: debit - 10_000, moves: moves(0, -debit, 0), payment_intent: intent.id, available_on: refundLine.created });

  const declined = await refund(flow, intent.id, 5_000);
  t.is((await flow.post(`/v1/test/refunds/${declined.id}/simulate`, { outcome: 'failed' })).statusCode, 200);
  all = await lines(flow);
  const [made, reversal] = [one(all, 'refund', declined.id), one(all, 'refund_reversal', declined.id)];
  t.like(reversal, { amount: 5_000, fee: -numberAt(made, 'fee'), net: -numberAt(made, 'net'), moves: moves(0, -numberAt(made, 'net'), 0) });

  const payout = await flow.post('/v1/settlements', {});
  t.is(payout.statusCode, 201, payout.payload);
  const st = apiObjectAt(payout.result);
  const amount = numberAt(st, 'amount', 'amount');
  t.is(amount, net - debit);
  all = await lines(flow);
  const settlement = one(all, 'settlement', st.id);
  t.like(settlement, { amount: -amount, fee: 0, net: -amount, moves: moves(0, -amount, 0), available_on: settlement.created });
  t.is(settlement.payment_intent, undefined);
  t.is(all.length, 6);
  t.deepEqual(lineTotals(all).get('THB'), { pending: 0n, available: 0n, dispute_hold: 0n, net: 0n }, 'all paid out');
  await booksAgree(s);
});

test.serial('disputes: a hold, its release when won, and a loss that takes the money and charges the fee', async (t) => {
  const s = await shop();
  const { flow } = s;
  const won = await paid(flow, 20_000);
  const wonNet = numberAt(won, 'net', 'amount');
  t.is((await flow.simulate(won.id, { outcome: 'dispute_opened' })).statusCode, 200);
  const hold = one(await lines(flow), 'dispute_hold');
  t.like(hold, { amount: 0, fee: 0, net: 0, moves: moves(-wonNet, 0, wonNet), payment_intent: won.id });
  t.regex(textAt(hold, 'source'), /^dp_/);
  t.is(hold.available_on, undefined, 'a hold moves no available money');
  t.is((await flow.simulate(won.id, { outcome: 'dispute_won' })).statusCode, 200);
  t.like(one(await lines(flow), 'dispute_release'), { net: 0, moves: moves(wonNet, 0, -wonNet), source: hold.source });

  const lost = await paid(flow, 50_000);
  const lostNet = numberAt(lost, 'net', 'amount');
  await released(flow, lost.id);
  t.is((await flow.simulate(lost.id, { outcome: 'dispute_opened' })).statusCode, 200);
  t.like(one(await lines(flow, `?payment_intent=${lost.id}`), 'dispute_hold'), { moves: moves(0, -lostNet, lostNet) });
  t.is((await flow.simulate(lost.id, { outcome: 'dispute_lost' })).statusCode, 200);
  const loss = one(await lines(flow), 'dispute_loss');
  t.like(loss, { amount: -lostNet, fee: DISPUTE_FEE, net: -lostNet - DISPUTE_FEE, moves: moves(0, -DISPUTE_FEE, -lostNet), payment_intent: lost.id });
  t.is(loss.available_on, loss.created);
  const ofLost = await lines(flow, `?payment_intent=${lost.id}`);
  t.deepEqual(
    ofLost.map((line) => line.type),
    ['dispute_loss', 'dispute_hold', 'release', 'payment'],
  );
  t.is(lineTotals(ofLost).get('THB')?.net, -BigInt(DISPUTE_FEE), 'a lost payment leaves the merchant at minus the dispute fee');
  await booksAgree(s);
});

test.serial('a payment in another currency: its line and its refund’s carry the amount the payer paid and the locked rate', async (t) => {
  const s = await shop();
  const { flow } = s;
  const intent = await paid(flow, 100_000, 'USD', 'alipay_plus');
  t.deepEqual(await lines(flow), [], 'a wallet payment is booked when its rate locks, at channel settlement');
  const priced = await channelSettled(flow, intent.id);
  const rate = textAt(priced, 'fx', 'rate');
  const payment = one(await lines(flow), 'payment');
  t.like(payment, {
    currency: 'THB',
    amount: numberAt(priced, 'net', 'amount') + numberAt(priced, 'fee', 'amount'),
    exchange: { amount: 100_000, currency: 'USD', rate },
  });
  await released(flow, intent.id);
  const partial = await refund(flow, intent.id, 25_000);
  const line = one(await lines(flow), 'refund', partial.id);
  t.like(line, { currency: 'THB', exchange: { amount: -25_000, currency: 'USD', rate } });
  t.true(numberAt(line, 'amount') < 0);
  t.is(one(await lines(flow), 'release').exchange, undefined, 'only payments and refunds have a presentment side');
  await booksAgree(s);
});

test.serial('filters combine, pages follow the cursor, and a settlement’s lines add up to its amount', async (t) => {
  const s = await shop();
  const { flow } = s;
  const first = await paid(flow, 10_000);
  await released(flow, first.id);
  clock.advance(DAY_MS);
  const second = await paid(flow, 20_000);
  await released(flow, second.id);
  const day = (line: ApiObject): string => textAt(line, 'created').slice(0, 10);
  const all = await lines(flow);
  t.is(all.length, 4);

  t.deepEqual(
    (await lines(flow, '?type=payment')).map((line) => line.source),
    [second.id, first.id],
  );
  t.deepEqual(await lines(flow, '?type=adjustment'), []);
  t.is((await lines(flow, `?payment_intent=${first.id}`)).length, 2);
  t.is((await lines(flow, '?currency=THB')).length, 4);
  t.deepEqual(await lines(flow, '?currency=USD'), []);
  const secondDay = day(one(all, 'payment', second.id));
  t.deepEqual(
    (await lines(flow, `?created[gte]=${secondDay}`)).map((line) => line.source),
    [second.id, second.id],
  );
  t.deepEqual(
    (await lines(flow, `?created[lte]=${day(one(all, 'payment', first.id))}&type=release`)).map((line) => line.source),
    [first.id],
  );
  const exactly = textAt(one(all, 'release', second.id), 'created');
  t.is(
    (await lines(flow, `?available_on[gte]=${exactly}&available_on[lte]=${exactly}&type=payment`)).length,
    1,
    'a released payment is available from its release',
  );
  t.is((await lines(flow, `?available_on[gte]=${secondDay}`)).length, 2);

  const page = await flow.get('/v1/balance_transactions?limit=3');
  t.is(apiObjectsAt(page, 'data').length, 3);
  t.true(page.has_more);
  const rest = await flow.get(`/v1/balance_transactions?limit=3&starting_after=${apiObjectsAt(page, 'data')[2].id}`);
  t.deepEqual(
    apiObjectsAt(rest, 'data').map((line) => line.id),
    [all[3].id],
  );
  t.false(rest.has_more);

  const payout = await flow.post('/v1/settlements', {});
  t.is(payout.statusCode, 201, payout.payload);
  const st = apiObjectAt(payout.result);
  // Coverage is written when a settlement is made (ledger_entries.settlement_id); what a settlement
  // covers is every available entry not covered before, here the whole available balance.
  await app()
    .app.get<Knex>(AppKnex)('ledger_entries')
    .where({ account: merchantAccount(s.scope, 'available', 'THB') })
    .whereNull('settlement_id')
    .update({ settlement_id: st.id });
  const covered = await lines(flow, `?settlement=${st.id}`);
  t.deepEqual(covered.map((line) => line.type).sort(), ['release', 'release', 'settlement']);
  const others = covered.filter((line) => line.type !== 'settlement');
  t.is(
    others.reduce((sum, line) => sum + numberAt(line, 'moves', 'available'), 0),
    numberAt(st, 'amount', 'amount'),
    'the lines a settlement covers sum to its amount',
  );
  for (const line of covered) t.is(line.settlement, st.id);
  t.is(apiObjectAt(await flow.get(`/v1/balance_transactions/${one(covered, 'settlement').id}`)).settlement, st.id);
  t.deepEqual(await lines(flow, '?settlement=st_AAAAAAAAAAAAAAAAAAAAAAAAAA'), []);
  await booksAgree(s);
});

test.serial('a line is its merchant’s and mode’s alone; bad ids, cursors and dates are 400 naming the parameter', async (t) => {
  const s = await shop();
  const other = await shop();
  await paid(s.flow, 10_000);
  const [line] = await lines(s.flow);
  t.like(apiObjectAt(await s.flow.get(`/v1/balance_transactions/${line.id}`)), { id: line.id, type: 'payment' });

  const stranger = await other.flow.get(`/v1/balance_transactions/${line.id}`);
  t.like(stranger, { error: { code: 'resource_not_found' } });
  t.is((await app().request({ method: 'GET', url: `/v1/balance_transactions/${line.id}`, key: other.key })).statusCode, 404);
  t.is((await app().request({ method: 'GET', url: '/v1/balance_transactions/txn_999999999', key: s.key })).statusCode, 404);
  const refused = async (url: string, param: string) => {
    const res = await app().request({ method: 'GET', url, key: s.key });
    t.is(res.statusCode, 400, `${url}: ${res.payload}`);
    t.like(res.result, { error: { code: 'invalid_parameter', param } }, url);
  };
  await refused('/v1/balance_transactions/txn_0', 'id');
  await refused('/v1/balance_transactions/pi_123', 'id');
  await refused('/v1/balance_transactions?type=fee', 'type');
  await refused('/v1/balance_transactions?created[gte]=2026-02-30', 'created[gte]');
  await refused('/v1/balance_transactions?available_on[lte]=yesterday', 'available_on[lte]');
  await refused('/v1/balance_transactions?colour=red', 'colour');
  const foreignCursor = await app().request({ method: 'GET', url: `/v1/balance_transactions?starting_after=${line.id}`, key: other.key });
  t.like(foreignCursor.result, { error: { code: 'invalid_parameter', param: 'starting_after' } });

  // The dashboard answers the same JSON, per mode; another merchant's user and the other mode find nothing.
  const viewer = await signIn(app(), { merchantId: s.scope.merchantId, role: 'viewer' });
  const listed = await asUser(app(), viewer, { method: 'GET', url: '/dashboard/v1/balance_transactions?mode=test' });
  t.is(listed.statusCode, 200, listed.payload);
  t.deepEqual(objectAt(listed.result).data, await lines(s.flow));
  const got = await asUser(app(), viewer, { method: 'GET', url: `/dashboard/v1/balance_transactions/${line.id}?mode=test` });
  t.deepEqual(got.result, line);
  t.is((await asUser(app(), viewer, { method: 'GET', url: `/dashboard/v1/balance_transactions/${line.id}?mode=live` })).statusCode, 404);
  t.deepEqual(jsonAt((await asUser(app(), viewer, { method: 'GET', url: '/dashboard/v1/balance_transactions?mode=live' })).result, 'data'), []);
  const outsider = await signIn(app(), { merchantId: other.scope.merchantId, role: 'owner' });
  t.is((await asUser(app(), outsider, { method: 'GET', url: `/dashboard/v1/balance_transactions/${line.id}?mode=test` })).statusCode, 404);
});
