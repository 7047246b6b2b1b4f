import test from 'ava';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { CreateMerchant, Ledger, MerchantRepository, PaymentAttemptRepository, platformAccount, type AccountScope } from '@payments/core';
import { apiObjectAt, listAt, numberAt, textAt, type ApiObject } from './helpers/json';
import { assertLedgerVerifies, assertMerchantMoney } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { unique } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

/**
 * Money features composed with each other, as a merchant's history mixes them: each test is one
 * history that used to double, lose or strand money while the ledger still balanced. What each
 * party should hold is written here from the rules (docs/ledger.md), not read from the books.
 */

const { app, tick } = appOnFakeClock();
const DISPUTE_FEE = 1500;

type Flow = ReturnType<typeof paymentFlow>;

async function shop(): Promise<{ flow: Flow; key: string; scope: AccountScope }> {
  const suffix = unique('compose');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency: 'THB' });
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(created.merchant.id, { settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  return { flow: paymentFlow(app(), key), key, scope: { merchantId: created.merchant.id, mode: 'test' } };
}

async function paid(flow: Flow, amount: number): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount, currency: 'THB' });
  await flow.attempt(intent.id, { payment_method: 'promptpay' });
  const result = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (result.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(result)}`);
  return result;
}

/** Channel-settled and released: its net waits in available. */
async function released(flow: Flow, id: string): Promise<void> {
  for (let i = 0; i < 3 && (await flow.intent(id)).status !== 'channel_settled'; i += 1) await tick();
  if ((await flow.advance(id, 'release')).statusCode !== 200) throw new Error('setup: release refused');
  await tick();
}

async function buckets(flow: Flow): Promise<{ pending: number; available: number; dispute_hold: number; total: number }> {
  const balance = await flow.get('/v1/balance');
  const of = (name: string) => {
    const amounts = listAt(balance, name);
    return amounts.length === 0 ? 0 : numberAt(amounts, 0, 'amount');
  };
  const [pending, available, dispute_hold] = [of('pending'), of('available'), of('dispute_hold')];
  return { pending, available, dispute_hold, total: pending + available + dispute_hold };
}

async function refund(flow: Flow, intentId: string, amount: number): Promise<ApiObject> {
  const res = await flow.post('/v1/refunds', { payment_intent: intentId, amount });
  if (res.statusCode !== 201) throw new Error(`refund refused: ${res.payload}`);
  return apiObjectAt(res.result);
}

const failRefund = (flow: Flow, id: string) => flow.post(`/v1/test/refunds/${id}/simulate`, { outcome: 'failed' });
const dispute = (flow: Flow, intentId: string, outcome: 'opened' | 'won' | 'lost') => flow.simulate(intentId, { outcome: `dispute_${outcome}` });

async function booksAgree(t: { pass: () => void }, flow: Flow, key: string, scope: AccountScope): Promise<void> {
  await assertLedgerVerifies(app());
  await assertMerchantMoney(app(), flow, { scope, key, currency: 'THB' });
  t.pass();
}

test.serial('a refund pending when a dispute opens, declined while it is open, then the dispute lost: the merchant is left at minus the fee', async (t) => {
  const { flow, key, scope } = await shop();
  const intent = await paid(flow, 30_000);
  const pending = await refund(flow, intent.id, 10_006);
  t.is((await dispute(flow, intent.id, 'opened')).statusCode, 200);
  t.is((await failRefund(flow, pending.id)).statusCode, 200);
  const whileOpen = await buckets(flow);
  t.is(whileOpen.dispute_hold, numberAt(intent, 'net', 'amount'), 'the declined refund gives its debit back to the hold, not to the merchant');
  t.is((await dispute(flow, intent.id, 'lost')).statusCode, 200);
  t.like(await buckets(flow), { total: -DISPUTE_FEE, pending: 0, dispute_hold: 0 });
  await booksAgree(t, flow, key, scope);
});

test.serial('a second dispute after a lost one holds nothing, and the release pays nothing of the lost payment', async (t) => {
  const { flow, key, scope } = await shop();
  const intent = await paid(flow, 20_000);
  t.is((await dispute(flow, intent.id, 'opened')).statusCode, 200);
  t.is((await dispute(flow, intent.id, 'lost')).statusCode, 200);
  // The payer disputes the order again: the channel opens a second dispute and reports it (the
  // service's own simulate route refuses this after a loss, a channel does not ask).
  const orderId = (await app().app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(scope, intent.id)).at(-1)?.channelOrderId ?? '';
  const channel = app().app.get(SimulatorPaymentChannel);
  await channel.simulateDispute('test', orderId, 'opened');
  t.is(listAt(await flow.get('/v1/disputes?limit=10'), 'data').length, 2);
  await channel.simulateDispute('test', orderId, 'won');
  await released(flow, intent.id);
  t.like(await buckets(flow), { total: -DISPUTE_FEE, available: -DISPUTE_FEE });
  const payout = await flow.post('/v1/settlements', {});
  t.is(payout.statusCode, 409, payout.payload);
  await booksAgree(t, flow, key, scope);
});

test.serial('a refund declined after the settlement that netted its debit: the money comes back and the next payout pays it', async (t) => {
  const { flow, key, scope } = await shop();
  const intent = await paid(flow, 40_000);
  await released(flow, intent.id);
  const net = numberAt(intent, 'net', 'amount');
  const pending = await refund(flow, intent.id, 20_000);
  const debit = numberAt(pending, 'amount') === 20_000 ? net - (await buckets(flow)).available : 0;
  const first = await flow.post('/v1/settlements', {});
  t.is(first.statusCode, 201, first.payload);
  t.is(numberAt(first.result, 'amount', 'amount'), net - debit, 'the settlement nets the pending refund');
  t.is((await failRefund(flow, pending.id)).statusCode, 200);
  t.like(await buckets(flow), { available: debit });
  const second = await flow.post('/v1/settlements', {});
  t.is(second.statusCode, 201, `pay out now pays the debit given back: ${second.payload}`);
  t.like(second.result, { amount: { amount: debit, currency: 'THB' }, payments: 0 });
  t.like(await buckets(flow), { total: 0 });
  await booksAgree(t, flow, key, scope);
});

test.serial('a refund moves the channel by the whole refunded amount; the fee share is the platform’s cost', async (t) => {
  const { flow, key, scope } = await shop();
  const intent = await paid(flow, 30_000);
  const [net, fee] = [numberAt(intent, 'net', 'amount'), numberAt(intent, 'fee', 'amount')];
  const ledger = app().app.get<Ledger>(Ledger);
  const platform = async () => {
    const table = await ledger.balanceTable();
    const at = (name: 'channel_clearing' | 'refunded_fees') => table.find((row) => row.account === platformAccount('test', name, 'THB'))?.balance ?? 0n;
    return { clearing: at('channel_clearing'), refundedFees: at('refunded_fees') };
  };
  const before = await platform();
  const made = await refund(flow, intent.id, 30_000);
  const after = await platform();
  t.is(after.clearing - before.clearing, 30_000n, 'the channel gives the payer the whole amount back');
  t.is(after.refundedFees - before.refundedFees, -BigInt(fee), 'the fee share is booked as the platform’s cost');
  t.like(await buckets(flow), { total: 0 }, `the merchant gave back its net ${net}`);
  t.is(textAt(made, 'status'), 'pending');
  await booksAgree(t, flow, key, scope);
});
