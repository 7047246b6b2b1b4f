import { CoreError } from '@payments/core';
import test, { type ExecutionContext } from 'ava';
import { errorBody } from './omise-shapes';
import { MERCHANT, omiseSubject } from './omise-subject';

/** The omise channel's own promises beyond the port's contract: look-up-before-create, confirmation by query, its tables, its refusals. */

const order = (reference: string, merchantId = MERCHANT) => ({
  mode: 'test' as const,
  merchantId,
  reference,
  amount: 125_00,
  currency: 'THB',
  paymentMethod: 'promptpay',
  callbackUrl: 'https://payments.example/channels/omise/callback/test',
  expiresAt: new Date(Date.now() + 3600_000),
});

async function rejectsWith(t: ExecutionContext, run: () => Promise<unknown>, code: string): Promise<CoreError> {
  const error = await t.throwsAsync(run, { instanceOf: CoreError });
  t.is(error?.code, code);
  return error;
}

test.serial('a retry after a lost answer finds the charge the first try made: one charge, whether or not search has indexed it', async (t) => {
  const s = omiseSubject();
  s.account.loseNextCreateAnswer = true;
  t.like(await s.channel.placeOrder(order('pa_lost')), { outcome: 'refused', failureCode: 'channel_error' });
  t.is(s.account.charges.size, 1, 'Omise made the charge though its answer was lost');
  // Search has not indexed it yet: the charges list of the lookup window finds it.
  const retried = await s.channel.placeOrder(order('pa_lost'));
  t.like(retried, { outcome: 'placed', channelOrderId: `${MERCHANT}:${s.account.chargeOf('pa_lost').id}` });
  s.account.indexSearch();
  t.deepEqual(await s.channel.placeOrder(order('pa_lost')), retried);
  t.is(s.account.charges.size, 1);
  t.is(s.account.calls.filter((call) => call === 'create_charge').length, 1);
});

test.serial('the QR is the promptpay source’s scannable code image', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_qr'));
  if (placed.outcome !== 'placed') return t.fail();
  t.deepEqual(placed.nextAction, { type: 'qr_code', url: s.account.chargeOf('pa_qr').source.scannable_code?.image.download_uri });
});

const trueMoney = (reference: string) => ({ ...order(reference), paymentMethod: 'truemoney', returnUrl: 'https://shop.example/thanks' });

test.serial(
  'TrueMoney is a redirect: the charge’s authorize_uri, the payer sent back to the intent’s return URL; placing again finds the same charge',
  async (t) => {
    const s = omiseSubject();
    const placed = await s.channel.placeOrder(trueMoney('pa_tmn'));
    if (placed.outcome !== 'placed') return t.fail(JSON.stringify(placed));
    const charge = s.account.chargeOf('pa_tmn');
    t.is(charge.source.type, 'truemoney_jumpapp');
    t.is(charge.return_uri, 'https://shop.example/thanks');
    t.deepEqual(placed.nextAction, { type: 'redirect', url: charge.authorize_uri ?? 'none' });
    t.true(placed.nextAction.url?.startsWith('https://'));
    s.account.indexSearch();
    t.deepEqual(await s.channel.placeOrder(trueMoney('pa_tmn')), placed, 'the retry answers the same order');
    t.is(s.account.calls.filter((call) => call === 'create_charge').length, 1);
    s.account.pay('pa_tmn');
    t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'paid', amount: 125_00, currency: 'THB' });
  },
);

test.serial('a TrueMoney order without an https return URL is refused before any call: Omise could not send the payer back', async (t) => {
  const s = omiseSubject();
  for (const returnUrl of [undefined, 'http://shop.example/thanks']) {
    const refused = await s.channel.placeOrder({ ...order('pa_tmn_noreturn'), paymentMethod: 'truemoney', ...(returnUrl ? { returnUrl } : {}) });
    t.like(refused, { outcome: 'refused', failureCode: 'channel_error' });
    if (refused.outcome === 'refused') t.regex(refused.message, /return_url/);
  }
  t.deepEqual(s.account.calls, []);
});

test.serial('a charge found by the reference but of another method is not this order: refused, no second charge', async (t) => {
  const s = omiseSubject();
  t.like(await s.channel.placeOrder(order('pa_mixed')), { outcome: 'placed' });
  t.like(await s.channel.placeOrder(trueMoney('pa_mixed')), { outcome: 'refused', failureCode: 'channel_error' });
  t.is(s.account.calls.filter((call) => call === 'create_charge').length, 1);
});

test.serial('a TrueMoney charge that failed or expired maps to the attempt’s failure', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(trueMoney('pa_tmn_fail'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.fail('pa_tmn_fail', 'expired', null);
  t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'expired' });
  s.account.indexSearch();
  t.like(await s.channel.placeOrder(trueMoney('pa_tmn_fail')), { outcome: 'refused', failureCode: 'expired' });
});

test.serial('a merchant without keys is not served, and its orders are refused without a call', async (t) => {
  const s = omiseSubject();
  t.true(await s.omiseChannel.servesMerchant(MERCHANT, 'test'));
  t.false(await s.omiseChannel.servesMerchant('mch_other', 'test'));
  t.like(await s.channel.placeOrder(order('pa_nokeys', 'mch_other')), { outcome: 'refused', failureCode: 'channel_error' });
  t.deepEqual(s.account.calls, []);
});

test.serial("Omise's charge failures map through the tables; an unknown failure code is channel_error, not a guess", async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_fail'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.fail('pa_fail', 'failed', 'insufficient_fund');
  t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'insufficient_funds' });
  s.account.fail('pa_fail', 'expired', null);
  t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'expired' });
  s.account.fail('pa_fail', 'failed', 'brand_new_code');
  const error = await rejectsWith(t, () => s.channel.queryOrder('test', placed.channelOrderId), 'channel_error');
  t.regex(error.message, /charge failure code.*'brand_new_code'/);
  s.account.nextCreateError = errorBody('failed_fraud_check');
  t.like(await s.channel.placeOrder(order('pa_fraud')), { outcome: 'refused', failureCode: 'risk_blocked' });
  s.account.nextCreateError = errorBody('authentication_failure');
  t.like(await s.channel.placeOrder(order('pa_badkey')), { outcome: 'refused', failureCode: 'channel_error' });
});

test.serial('a paid charge answers settledAt once its transaction is transferable', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_settles'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.pay('pa_settles', { transferable: false });
  t.like(await s.channel.queryOrder('test', placed.channelOrderId), { status: 'paid', settledAt: undefined });
  const other = await s.channel.placeOrder(order('pa_settled'));
  if (other.outcome !== 'placed') return t.fail();
  s.account.pay('pa_settled', { transferable: true });
  t.truthy((await s.channel.queryOrder('test', other.channelOrderId)).settledAt);
});

test.serial('unsigned deliveries: the fetched charge decides; a contradicted, foreign or unknown delivery is refused and changes nothing', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_hook'));
  if (placed.outcome !== 'placed') return t.fail();
  const charge = s.account.chargeOf('pa_hook');
  const body = (key: string, data: Parameters<typeof s.account.event>[1]) => JSON.stringify(s.account.event(key, data));
  // Says successful, the charge is pending: ignored.
  const forged = body('charge.complete', { ...charge, status: 'successful' });
  const error = await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, forged), 'invalid_callback');
  t.regex(error.message, /claims the charge is paid; the charge says pending/);
  // charge.create (pending) is no claim: it names the order.
  t.like(await s.channel.verifyCallback('test', {}, body('charge.create', charge)), { kind: 'order', channelOrderId: placed.channelOrderId });
  s.account.fail('pa_hook', 'failed', 'payment_rejected');
  await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, forged), 'invalid_callback');
  t.like(await s.channel.verifyCallback('test', {}, body('charge.complete', s.account.chargeOf('pa_hook'))), { reportedStatus: 'failed' });
  // A merchant this channel has no keys for, a charge that does not exist, an event of no interest, not JSON.
  await rejectsWith(
    t,
    async () => s.channel.verifyCallback('test', {}, body('charge.complete', { ...charge, metadata: { reference: 'pa_hook', merchant: 'mch_x' } })),
    'invalid_callback',
  );
  await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, body('charge.complete', { ...charge, id: 'chrg_test_missing' })), 'channel_error');
  await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, JSON.stringify({ ...s.account.event('customer.create', charge) })), 'invalid_callback');
  await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, 'not json'), 'invalid_callback');
  const live = JSON.stringify({ ...s.account.event('charge.complete', charge), livemode: true });
  await rejectsWith(t, async () => s.channel.verifyCallback('test', {}, live), 'invalid_callback');
});

test.serial('refunds: looked up before made, declines are refusals with our codes, an outage throws', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_refund'));
  if (placed.outcome !== 'placed') return t.fail();
  const refund = { mode: 'test' as const, reference: 're_1', channelOrderId: placed.channelOrderId, amount: 10_00, currency: 'THB', callbackUrl: 'x' };
  t.like(await s.channel.placeRefund!(refund), { outcome: 'refused', failureCode: 'channel_declined' });
  s.account.pay('pa_refund');
  const first = await s.channel.placeRefund!(refund);
  t.like(first, { outcome: 'placed' });
  t.deepEqual(await s.channel.placeRefund!(refund), first, 'placing it again answers the refund placed before');
  t.is(s.account.refunds.size, 1);
  s.account.nextRefundError = errorBody('insufficient_balance');
  t.like(await s.channel.placeRefund!({ ...refund, reference: 're_2' }), { outcome: 'refused', failureCode: 'insufficient_channel_funds' });
  s.account.down = true;
  await rejectsWith(t, () => s.channel.placeRefund!({ ...refund, reference: 're_3' }), 'channel_error');
});

test.serial("disputes: statuses map through the table; evidence goes as the dispute's message; Omise's bare 'closed' fails loudly", async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_dispute'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.pay('pa_dispute');
  const dispute = s.account.openDispute('pa_dispute');
  const id = `${MERCHANT}:${dispute.id}`;
  t.like(await s.channel.verifyCallback('test', {}, JSON.stringify(s.account.event('dispute.create', dispute))), { kind: 'dispute', channelDisputeId: id });
  await s.channel.submitDisputeEvidence!('test', id, { customer_name: 'Somchai', receipt: 'Order 42' });
  t.is(s.account.disputes.get(dispute.id)?.message, 'customer_name: Somchai\nreceipt: Order 42');
  t.like(await s.channel.queryDispute!('test', id), { status: 'under_review', channelOrderId: placed.channelOrderId, reference: 'pa_dispute' });
  s.account.disputes.set(dispute.id, { ...dispute, status: 'closed' });
  await rejectsWith(t, () => s.channel.queryDispute!('test', id), 'channel_error');
});

test.serial('the statement: payments, fees, refunds and disputes as lines; an unmapped transaction key fails the read loudly', async (t) => {
  const s = omiseSubject();
  const placed = await s.channel.placeOrder(order('pa_s1'));
  if (placed.outcome !== 'placed') return t.fail();
  s.account.pay('pa_s1', { fee: 4_50 });
  await s.channel.placeRefund!({ mode: 'test', reference: 're_s1', channelOrderId: placed.channelOrderId, amount: 25_00, currency: 'THB', callbackUrl: 'x' });
  s.account.indexSearch();
  const dispute = s.account.openDispute('pa_s1');
  s.account.rule(dispute.id, 'won');
  const page = await s.channel.statement!('test', { limit: 2 });
  t.deepEqual(
    page.lines.map(({ kind, reference, amount }) => ({ kind, reference, amount })),
    [
      { kind: 'payment', reference: 'pa_s1', amount: 125_00 },
      { kind: 'fee', reference: 'pa_s1', amount: 4_50 },
      { kind: 'refund', reference: 're_s1', amount: 25_00 },
    ],
  );
  t.true(page.hasMore);
  const rest = await s.channel.statement!('test', { after: page.next, limit: 10 });
  t.deepEqual(
    rest.lines.map(({ kind, amount }) => ({ kind, amount })),
    [
      { kind: 'chargeback', amount: 125_00 },
      { kind: 'chargeback', amount: -125_00 },
    ],
  );
  t.false(rest.hasMore);
  s.account.transactions.push({ ...s.account.transactions[0], id: 'trxn_test_topup', key: 'balance.topup' });
  const error = await rejectsWith(t, () => s.channel.statement!('test', { after: rest.next, limit: 10 }), 'channel_error');
  t.regex(error.message, /transaction key.*'balance.topup:credit'/);
});
