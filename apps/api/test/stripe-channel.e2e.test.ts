import test from 'ava';
import Stripe from 'stripe';
import { FakeStripeAccount } from '@payments/channel-stripe/dist/test/fake-stripe';
import { seconds, type EventShape } from '@payments/channel-stripe/dist/test/stripe-shapes';
import { isolateNetwork, assertNoStrayRequests } from '@payments/channel-kit';
import { CreateMerchant, ReconcileChannel, ReconcileRefunds, ReportChannelSettlements } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { apiObjectAt, apiObjectsAt, textAt } from './helpers/json';
import { assertLedgerVerifies, assertMerchantMoney } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { merchantOnChannel, testSecretKey, type ChannelMerchant } from './helpers/channel-merchant';
import { startTestApp, unique, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';

/**
 * The stripe channel in the whole service, in process, against a fake Stripe account that answers
 * in the SDK's typed shapes (nock): a merchant switched to Stripe pays with PromptPay, Stripe's
 * signed webhooks are checked and confirmed by query, the payment settles, is partly refunded,
 * disputed with evidence and lost; the books agree with the money model and the statement
 * reconciles with no break.
 */

const clock = new FakeClock(new Date());
let running: TestApp | undefined;
test.before(async () => {
  isolateNetwork();
  running = await startTestApp({ clock, env: { PAYMENTS_STRIPE_CHANNEL: 'on' } });
});
test.after.always(async () => running?.close());
const app = (): TestApp => running!;

const WEBHOOK_SECRET = 'whsec_e2eSigningSecret00000000000';
const signer = new Stripe('sk_test_signer', { telemetry: false });

async function stripeMerchant(): Promise<ChannelMerchant & { account: FakeStripeAccount }> {
  const secretKey = testSecretKey('sk_test_');
  const merchant = await merchantOnChannel(
    app(),
    'stripe',
    { secret_key: secretKey, webhook_secret: WEBHOOK_SECRET, billing_email: 'payer@shop.example' },
    clock.now(),
  );
  const account = new FakeStripeAccount(secretKey, () => clock.now());
  account.install();
  return { ...merchant, account };
}

/** Stripe's delivery of `event` to the callback route, signed with the merchant's webhook secret. */
async function deliver(event: EventShape, secret = WEBHOOK_SECRET): Promise<{ statusCode: number; payload: string }> {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: seconds(clock.now()) });
  return app().request({
    method: 'POST',
    url: '/channels/stripe/callback/test',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

test.serial(
  'a merchant switched to Stripe: PromptPay QR → signed webhook → confirmed → settled → refund → dispute → evidence → lost; books and statement agree',
  async (t) => {
    const { scope, key, account, flow } = await stripeMerchant();
    const intent = await flow.createIntent({ amount: 125_00, currency: 'THB' });
    const attempt = apiObjectAt((await flow.attempt(intent.id, { payment_method: 'promptpay' })).result);
    t.is(attempt.channel, 'stripe', 'routing chose the channel the operator set up');
    const waiting = await flow.intent(intent.id);
    t.like(waiting, { status: 'requires_payment', next_action: { type: 'qr_code' } });
    const stripeIntent = [...account.intents.values()][0];
    t.is(textAt(waiting, 'next_action', 'qr_data'), textOf(stripeIntent.next_action?.promptpay_display_qr_code?.data));

    // A webhook that claims success before Stripe has it changes nothing: the query decides.
    t.is((await deliver(account.event('payment_intent.succeeded', { ...stripeIntent, status: 'succeeded' }))).statusCode, 200);
    t.is((await flow.intent(intent.id)).status, 'requires_payment');
    // A tampered delivery is refused.
    const tampered = await deliver(account.event('payment_intent.succeeded', stripeIntent), 'whsec_someoneElse000000000000000');
    t.is(tampered.statusCode, 401);

    const paid = account.pay(textOf(stripeIntent.metadata['reference']), { available: true });
    t.is((await deliver(account.event('payment_intent.succeeded', paid))).statusCode, 200);
    t.is((await flow.intent(intent.id)).status, 'succeeded');

    clock.advance(1000);
    await runJob(app().app, ReportChannelSettlements);
    t.is((await flow.intent(intent.id)).status, 'channel_settled');

    const refundAnswer = await flow.post('/v1/refunds', { payment_intent: intent.id, amount: 20_00 });
    t.is(refundAnswer.statusCode, 201, refundAnswer.payload);
    const stripeRefund = [...account.refunds.values()][0];
    t.is((await deliver(account.event('refund.updated', stripeRefund))).statusCode, 200);
    await runJob(app().app, ReconcileRefunds);
    t.is(apiObjectAt(await flow.get(`/v1/refunds/${textOf(apiObjectAt(refundAnswer.result).id)}`)).status, 'succeeded');

    const stripeDispute = account.openDispute(textOf(stripeIntent.metadata['reference']));
    t.is((await deliver(account.event('charge.dispute.created', stripeDispute))).statusCode, 200);
    const disputes = apiObjectsAt(await flow.get('/v1/disputes'), 'data');
    t.is(disputes.length, 1);
    const disputeId = textOf(disputes[0].id);
    const evidence = await flow.post(`/v1/disputes/${disputeId}/evidence`, { evidence: { customer_name: 'Somchai', receipt: 'Order 42 delivered' } });
    t.is(evidence.statusCode, 200, evidence.payload);
    t.true(account.calls.includes('update_dispute'));

    account.rule(stripeDispute.id, 'lost');
    t.is((await deliver(account.event('charge.dispute.closed', { ...stripeDispute, status: 'lost' }))).statusCode, 200);
    t.like(apiObjectAt(await flow.get(`/v1/disputes/${disputeId}`)), { status: 'lost' });

    await assertLedgerVerifies(app());
    await assertMerchantMoney(app(), flow, { scope, key, currency: 'THB' });
    // The statement (payment, refund, chargeback) against the ledger: nothing open, nothing waiting.
    const run = await app().app.get(ReconcileChannel).handle({ mode: 'test', channel: 'stripe' });
    t.like(run, { linesRead: 3, open: [], waiting: 0 }, 'the statement reconciles with the ledger');
    t.true(run.checked >= 3);
    assertNoStrayRequests();
  },
);

test.serial('a merchant without Stripe keys still routes to the simulator', async (t) => {
  const suffix = unique('plain');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery' });
  const flow = paymentFlow(app(), created.testApiKey.secret);
  const intent = await flow.createIntent({ amount: 5_00, currency: 'THB' });
  t.is(apiObjectAt((await flow.attempt(intent.id, { payment_method: 'promptpay' })).result).channel, 'simulator');
});

function textOf(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`expected text, got ${JSON.stringify(value)}`);
  return value;
}
