import { CoreError } from '@payments/core';
import test, { type ExecutionContext } from 'ava';
import { FakeStripeAccount } from './fake-stripe';
import { errorBody } from './stripe-shapes';
import { MERCHANT, stripeSubject, testClient, WEBHOOK_SECRET } from './stripe-subject';

/** The stripe channel's own promises beyond the port's contract: its tables, its refusals, its webhooks. */

const order = (reference: string, merchantId = MERCHANT) => ({
  mode: 'test' as const,
  merchantId,
  reference,
  amount: 125_00,
  currency: 'THB',
  paymentMethod: 'promptpay',
  callbackUrl: 'https://payments.example/channels/stripe/callback/test',
  expiresAt: new Date(Date.now() + 3600_000),
});

async function rejectsWith(t: ExecutionContext, run: () => Promise<unknown>, code: string): Promise<CoreError> {
  const error = await t.throwsAsync(run, { instanceOf: CoreError });
  t.is(error?.code, code);
  return error;
}

test.serial("Stripe's decline codes map through the table; an unknown one is refused as channel_error, not guessed", async (t) => {
  const s = stripeSubject();
  s.account.nextCreateError = { status: 402, body: errorBody('card_error', 'card_declined', { decline_code: 'insufficient_funds' }) };
  t.like(await s.channel.placeOrder(order('pa_declined')), { outcome: 'refused', failureCode: 'insufficient_funds' });
  s.account.nextCreateError = { status: 402, body: errorBody('card_error', 'card_declined', { decline_code: 'brand_new_reason' }) };
  t.like(await s.channel.placeOrder(order('pa_unknown')), { outcome: 'refused', failureCode: 'channel_error' });
});

test.serial('a merchant without keys is not served, and its orders are refused, not sent with another key', async (t) => {
  const s = stripeSubject();
  t.true(await s.stripeChannel.servesMerchant(MERCHANT, 'test'));
  t.false(await s.stripeChannel.servesMerchant('mch_other', 'test'));
  t.false(await s.stripeChannel.servesMerchant(MERCHANT, 'live'));
  t.like(await s.channel.placeOrder(order('pa_nokeys', 'mch_other')), { outcome: 'refused', failureCode: 'channel_error' });
  t.deepEqual(s.account.calls, []);
});

test.serial('an expired QR is a failed order with failure code expired', async (t) => {
  const s = stripeSubject();
  const placed = await s.channel.placeOrder(order('pa_expiring'));
  if (placed.outcome !== 'placed') return t.fail();
  const intent = s.account.intentOf('pa_expiring');
  s.account.intents.set(intent.id, {
    ...intent,
    status: 'requires_payment_method',
    next_action: null,
    last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_payment_attempt_expired' },
  });
  t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'expired' });
});

test.serial('a settled payment answers settledAt once its balance transaction is available', async (t) => {
  const s = stripeSubject();
  const placed = await s.channel.placeOrder(order('pa_settles'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.pay('pa_settles', { available: false });
  t.is((await s.channel.queryOrder('test', placed.channelOrderId)).settledAt, undefined);
  s.account.pay('pa_settles', { available: true });
  t.truthy((await s.channel.queryOrder('test', placed.channelOrderId)).settledAt);
});

test.serial("Stripe's refund declines are refusals with our codes; a refund of an unpaid order is channel_declined", async (t) => {
  const s = stripeSubject();
  const placed = await s.channel.placeOrder(order('pa_refund'));
  if (placed.outcome !== 'placed' || !s.channel.placeRefund) return t.fail();
  const refund = {
    mode: 'test' as const,
    reference: 're_1',
    channelOrderId: placed.channelOrderId,
    amount: 10_00,
    currency: 'THB',
    callbackUrl: 'https://x.example',
  };
  t.like(await s.channel.placeRefund(refund), { outcome: 'refused', failureCode: 'channel_declined' });
  s.account.pay('pa_refund');
  t.like(await s.channel.placeRefund({ ...refund, reference: 're_2', amount: 999_00 }), { outcome: 'refused', failureCode: 'channel_declined' });
  s.account.down = true;
  await rejectsWith(t, () => s.channel.placeRefund!({ ...refund, reference: 're_3' }), 'channel_error');
});

test.serial(
  'webhooks: the secret of the merchant that signed it decides whose event it is; unknown types and live events in test mode are refused',
  async (t) => {
    const s = stripeSubject();
    s.credentials.set('mch_second', 'test', {
      secret_key: 'sk_test_second000000000000',
      webhook_secret: 'whsec_second0000000000000000',
      billing_email: 'a@b.example',
    });
    const placed = await s.channel.placeOrder(order('pa_hook'));
    if (placed.outcome !== 'placed') return t.fail();
    const intent = s.account.intentOf('pa_hook');
    const sign = (payload: string, secret: string) => ({ 'stripe-signature': testClient('sk_test_x').webhooks.generateTestHeaderString({ payload, secret }) });
    const paid = JSON.stringify(s.account.event('payment_intent.succeeded', intent));
    t.like(await s.channel.verifyCallback('test', sign(paid, WEBHOOK_SECRET), paid), {
      kind: 'order',
      channelOrderId: placed.channelOrderId,
      reportedStatus: 'paid',
    });
    // Signed by the second merchant's secret: it is that merchant's event, so it names that merchant's order.
    t.like(await s.channel.verifyCallback('test', sign(paid, 'whsec_second0000000000000000'), paid), { channelOrderId: `mch_second:${intent.id}` });
    await rejectsWith(t, async () => s.channel.verifyCallback('test', sign(paid, 'whsec_stranger00000000000000'), paid), 'invalid_signature');
    await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, paid), 'invalid_signature');
    const unknown = JSON.stringify({ ...s.account.event('payment_intent.succeeded', intent), type: 'customer.created' });
    await rejectsWith(t, async () => s.channel.verifyCallback('test', sign(unknown, WEBHOOK_SECRET), unknown), 'invalid_callback');
    const live = JSON.stringify({ ...s.account.event('payment_intent.succeeded', intent), livemode: true });
    await rejectsWith(t, async () => s.channel.verifyCallback('test', sign(live, WEBHOOK_SECRET), live), 'invalid_callback');
  },
);

test.serial(
  'the statement: payments, refunds, fees and lost disputes as lines of each merchant; an unmapped balance transaction fails the read loudly',
  async (t) => {
    const s = stripeSubject();
    const second = new FakeStripeAccount('sk_test_second000000000000');
    second.install();
    s.credentials.set('mch_second', 'test', {
      secret_key: 'sk_test_second000000000000',
      webhook_secret: 'whsec_second0000000000000000',
      billing_email: 'a@b.example',
    });
    const channel = s.stripeChannel;
    const first = await channel.placeOrder(order('pa_s1'));
    const other = await channel.placeOrder(order('pa_s2', 'mch_second'));
    if (first.outcome !== 'placed' || other.outcome !== 'placed') return t.fail();
    s.account.pay('pa_s1', { fee: 4_50 });
    second.pay('pa_s2');
    const refund = await channel.placeRefund({
      mode: 'test',
      reference: 're_s1',
      channelOrderId: first.channelOrderId,
      amount: 25_00,
      currency: 'THB',
      callbackUrl: 'x',
    });
    const dispute = s.account.openDispute('pa_s1');
    s.account.rule(dispute.id, 'lost');

    const page = await channel.statement('test', { limit: 2 });
    t.deepEqual(
      page.lines.map(({ kind, reference, amount }) => ({ kind, reference, amount })),
      [
        { kind: 'payment', reference: 'pa_s1', amount: 125_00 },
        { kind: 'fee', reference: 'pa_s1', amount: 4_50 },
        { kind: 'refund', reference: 're_s1', amount: 25_00 },
      ],
    );
    t.true(page.hasMore);
    const rest = await channel.statement('test', { after: page.next, limit: 10 });
    t.deepEqual(
      rest.lines.map(({ kind, reference, amount }) => ({ kind, reference, amount })),
      [
        { kind: 'chargeback', reference: `${MERCHANT}:${dispute.id}`, amount: 125_00 },
        { kind: 'payment', reference: 'pa_s2', amount: 125_00 },
      ],
    );
    t.false(rest.hasMore);
    t.like(refund, { outcome: 'placed' });
    t.deepEqual((await channel.statement('test', { after: rest.next, limit: 10 })).lines, []);

    s.account.balance.unshift({ ...s.account.balance[0], id: 'txn_topup', type: 'topup', source: null });
    const error = await rejectsWith(t, () => channel.statement('test', { after: rest.next, limit: 10 }), 'channel_error');
    t.regex(error.message, /balance transaction type.*'topup'/);
  },
);
