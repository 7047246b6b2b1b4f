import test from 'ava';
import { FakeOmiseAccount } from '@payments/channel-omise/dist/test/fake-omise';
import type { EventShape } from '@payments/channel-omise/dist/test/omise-shapes';
import { isolateNetwork, assertNoStrayRequests } from '@payments/channel-kit';
import { CreateMerchant, ReconcileChannel, ReconcileRefunds, ReportChannelSettlements } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { checkoutClient } from './helpers/checkout';
import { apiObjectAt, apiObjectsAt, textAt } from './helpers/json';
import { assertLedgerVerifies, assertMerchantMoney } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { merchantOnChannel, testSecretKey, type ChannelMerchant } from './helpers/channel-merchant';
import { startTestApp, unique, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';

/**
 * The omise channel in the whole service, in process, against a fake Omise account that answers
 * in the SDK's typed shapes (nock): a merchant switched to Omise pays with PromptPay, Omise's
 * unsigned webhooks are confirmed by fetching the charge (a forged one changes nothing), the
 * payment settles, is partly refunded, disputed with evidence and lost; the books agree with the
 * money model and the statement reconciles with no break.
 */

const clock = new FakeClock(new Date());
let running: TestApp | undefined;
test.before(async () => {
  isolateNetwork();
  running = await startTestApp({ clock, env: { PAYMENTS_OMISE_CHANNEL: 'on' } });
});
test.after.always(async () => running?.close());
const app = (): TestApp => running!;

async function omiseMerchant(): Promise<ChannelMerchant & { account: FakeOmiseAccount }> {
  const secretKey = testSecretKey('skey_test_');
  const merchant = await merchantOnChannel(app(), 'omise', { secret_key: secretKey }, clock.now());
  const account = new FakeOmiseAccount(secretKey, () => clock.now());
  account.install();
  return { ...merchant, account };
}

/** Omise's delivery of `event` to the callback route: unsigned, as Omise posts it. */
async function deliver(event: EventShape): Promise<{ statusCode: number; payload: string }> {
  return app().request({
    method: 'POST',
    url: '/channels/omise/callback/test',
    payload: JSON.stringify(event),
    headers: { 'content-type': 'application/json' },
  });
}

test.serial(
  'a merchant switched to Omise: PromptPay QR → unsigned webhook → confirmed by query → settled → refund → dispute → evidence → lost; books and statement agree',
  async (t) => {
    const { scope, key, account, flow } = await omiseMerchant();
    const intent = await flow.createIntent({ amount: 125_00, currency: 'THB' });
    const attempt = apiObjectAt((await flow.attempt(intent.id, { payment_method: 'promptpay' })).result);
    t.is(attempt.channel, 'omise', 'routing chose the channel the operator set up');
    const waiting = await flow.intent(intent.id);
    t.like(waiting, { status: 'requires_payment', next_action: { type: 'qr_code' } });
    const charge = [...account.charges.values()][0];
    t.is(textAt(waiting, 'next_action', 'url'), charge.source.scannable_code?.image.download_uri ?? 'a QR image');
    const reference = textOf(charge.metadata['reference']);

    // A delivery that claims success before Omise has it is contradicted by the charge: ignored.
    const forged = await deliver(account.event('charge.complete', { ...charge, status: 'successful' }));
    t.is(forged.statusCode, 400, forged.payload);
    t.is((await flow.intent(intent.id)).status, 'requires_payment');

    const paid = account.pay(reference, { transferable: true });
    t.is((await deliver(account.event('charge.complete', paid))).statusCode, 200);
    t.is((await flow.intent(intent.id)).status, 'succeeded');

    clock.advance(1000);
    await runJob(app().app, ReportChannelSettlements);
    t.is((await flow.intent(intent.id)).status, 'channel_settled');

    const refundAnswer = await flow.post('/v1/refunds', { payment_intent: intent.id, amount: 20_00 });
    t.is(refundAnswer.statusCode, 201, refundAnswer.payload);
    const omiseRefund = [...account.refunds.values()][0];
    t.is((await deliver(account.event('refund.create', omiseRefund))).statusCode, 200);
    await runJob(app().app, ReconcileRefunds);
    t.is(apiObjectAt(await flow.get(`/v1/refunds/${textOf(apiObjectAt(refundAnswer.result).id)}`)).status, 'succeeded');

    const dispute = account.openDispute(reference);
    t.is((await deliver(account.event('dispute.create', dispute))).statusCode, 200);
    const disputes = apiObjectsAt(await flow.get('/v1/disputes'), 'data');
    t.is(disputes.length, 1);
    const disputeId = textOf(disputes[0].id);
    const evidence = await flow.post(`/v1/disputes/${disputeId}/evidence`, { evidence: { customer_name: 'Somchai', receipt: 'Order 42 delivered' } });
    t.is(evidence.statusCode, 200, evidence.payload);
    t.true(account.calls.includes('update_dispute'));

    const lost = account.rule(dispute.id, 'lost');
    t.is((await deliver(account.event('dispute.update', lost))).statusCode, 200);
    t.like(apiObjectAt(await flow.get(`/v1/disputes/${disputeId}`)), { status: 'lost' });

    await assertLedgerVerifies(app());
    await assertMerchantMoney(app(), flow, { scope, key, currency: 'THB' });
    // The statement (payment, refund, chargeback) against the ledger: nothing open, nothing waiting.
    account.indexSearch();
    const run = await app().app.get(ReconcileChannel).handle({ mode: 'test', channel: 'omise' });
    t.like(run, { linesRead: 3, open: [], waiting: 0 }, 'the statement reconciles with the ledger');
    t.true(run.checked >= 3);
    t.is(account.charges.size, 1, 'one charge for the one attempt');
    assertNoStrayRequests();
  },
);

test.serial(
  'a merchant switched to Omise: TrueMoney redirects the payer to Omise’s authorize_uri and back to the return_url → confirmed by query → refund; books agree',
  async (t) => {
    const { scope, key, account, flow } = await omiseMerchant();
    const intent = await flow.createIntent({ amount: 310_50, currency: 'THB', return_url: 'https://shop.example/thanks' });
    const attempt = apiObjectAt((await flow.attempt(intent.id, { payment_method: 'truemoney' })).result);
    t.is(attempt.channel, 'omise');
    const charge = [...account.charges.values()][0];
    t.is(charge.source.type, 'truemoney_jumpapp');
    t.is(charge.return_uri, 'https://shop.example/thanks', 'Omise sends the payer back to the merchant’s page');
    const waiting = await flow.intent(intent.id);
    t.like(waiting, { status: 'requires_payment', next_action: { type: 'redirect', url: charge.authorize_uri } });

    const reference = textOf(charge.metadata['reference']);
    const paid = account.pay(reference, { transferable: true });
    t.is((await deliver(account.event('charge.complete', paid))).statusCode, 200);
    t.is((await flow.intent(intent.id)).status, 'succeeded');

    const refundAnswer = await flow.post('/v1/refunds', { payment_intent: intent.id, amount: 10_50 });
    t.is(refundAnswer.statusCode, 201, refundAnswer.payload);
    t.is((await deliver(account.event('refund.create', [...account.refunds.values()][0]))).statusCode, 200);
    await runJob(app().app, ReconcileRefunds);
    t.is(apiObjectAt(await flow.get(`/v1/refunds/${textOf(apiObjectAt(refundAnswer.result).id)}`)).status, 'succeeded');

    await assertLedgerVerifies(app());
    await assertMerchantMoney(app(), flow, { scope, key, currency: 'THB' });
    t.is(account.charges.size, 1);

    // Without a return_url Omise could not send the payer back: the attempt fails (channel_error) and Omise is not called.
    const bare = await flow.createIntent({ amount: 99_00, currency: 'THB' });
    const refused = await flow.attempt(bare.id, { payment_method: 'truemoney' });
    t.like(refused, { statusCode: 402, result: { error: { code: 'payment_failed' } } });
    t.like(apiObjectsAt(await flow.get(`/v1/payment_intents/${bare.id}/attempts`), 'data')[0], {
      channel: 'omise',
      status: 'failed',
      failure_code: 'channel_error',
    });
    t.is(account.charges.size, 1);
    assertNoStrayRequests();
  },
);

test.serial('the hosted checkout shows Omise’s QR image, and its CSP lets the page draw images from that origin only', async (t) => {
  const { key, account } = await omiseMerchant();
  const checkout = checkoutClient(app());
  const { token } = await checkout.createIntent(key, { amount: 45_00, currency: 'THB' });
  const before = await checkout.page(token);
  t.true(String(before.headers['content-security-policy']).includes("img-src 'self';"), 'no other image origin before there is a QR');
  const paid = await checkout.pay(token, { payment_method: 'promptpay' });
  t.is(paid.res.statusCode, 200, paid.res.payload);
  const image = [...account.charges.values()][0].source.scannable_code?.image.download_uri ?? 'a QR image';
  const page = await checkout.page(token);
  t.is(page.statusCode, 200);
  t.true(page.payload.includes(`<img src="${image}"`), 'the QR is Omise’s image');
  t.regex(page.payload, /<img [^>]*alt="QR code to pay with PromptPay"/);
  const csp = String(page.headers['content-security-policy']);
  t.true(csp.includes(`img-src 'self' ${new URL(image).origin};`), csp);
  t.false(csp.includes('https:;'), 'not every https origin');
  assertNoStrayRequests();
});

test.serial('a merchant without Omise keys still routes to the simulator', async (t) => {
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
