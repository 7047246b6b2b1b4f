import test from 'ava';
import { ReconcileAttempts, ReleaseFunds, ReportChannelSettlements, ExpirePaymentIntents } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { paymentFlow, withMerchantFlow } from './helpers/payment-flow';
import { unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { apiObjectAt, jsonAt, numberAt, objectAt, textAt } from './helpers/json';

const clock = new FakeClock(new Date());
let t0: TestApp;
let shop: TestMerchant;
let flow: ReturnType<typeof paymentFlow>;

withMerchantFlow({ clock }, (started) => ({ t0, shop, flow } = started));

/** One worker tick, as the scheduler runs it, a tick (1 s, the default) after the last one. */
async function tick(): Promise<void> {
  clock.advance(1000);
  await t0.app.get(SimulatorPaymentChannel).tick();
  await runJob(t0.app, ExpirePaymentIntents, 100);
  await runJob(t0.app, ReconcileAttempts, 100);
  await runJob(t0.app, ReportChannelSettlements, 100);
  await runJob(t0.app, ReleaseFunds, 100);
}

test.serial('a test payment end to end: attempt, simulate success, channel_settled, release', async (t) => {
  const intent = await flow.createIntent({ amount: 10000 });
  const placed = await flow.attempt(intent.id);
  t.is(placed.statusCode, 201);
  const attempt = apiObjectAt(placed.result);
  t.regex(attempt.id, /^pa_[A-Z2-7]+$/);
  t.like(attempt, { object: 'payment_attempt', status: 'pending', amount: 10000, currency: 'THB', payment_method: 'promptpay', channel: 'simulator' });
  t.is(jsonAt(attempt, 'next_action', 'type'), 'qr_code');
  t.truthy(jsonAt(attempt, 'next_action', 'qr_data'));
  t.like(await flow.intent(intent.id), { status: 'requires_payment', payment_method: 'promptpay', next_action: { type: 'qr_code' } });

  const simulated = await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.is(simulated.statusCode, 200);
  const paid = objectAt(simulated.result);
  t.is(paid.status, 'succeeded');
  // THB intent for a THB merchant: fee and net in THB, no fx.
  const fee = numberAt(paid, 'fee', 'amount');
  t.is(jsonAt(paid, 'fee', 'currency'), 'THB');
  t.is(jsonAt(paid, 'net', 'amount'), 10000 - fee);
  t.true(fee > 0);
  t.is(paid.fx, undefined);
  t.like((await flow.attempts(intent.id))[0], { status: 'succeeded' });

  await tick(); // the simulator settles the order
  await tick(); // the settlement report reaches the intent
  const settled = await flow.intent(intent.id);
  t.is(settled.status, 'channel_settled');
  const availableAt = Date.parse(textAt(settled, 'available_at'));
  // Two days (the default settlement delay) from the tick that settled it; timestamps show whole seconds.
  t.true(availableAt >= clock.now().getTime() + 2 * 24 * 3600 * 1000 - 3000);

  const advanced = await flow.advance(intent.id, 'release');
  t.is(advanced.statusCode, 200);
  t.true(Date.parse(textAt(advanced.result, 'available_at')) <= clock.now().getTime());
  // A repeat while the timer still runs answers 200 and changes nothing.
  const again = await flow.advance(intent.id, 'release');
  t.is(again.statusCode, 200);
  t.is(jsonAt(again.result, 'available_at'), jsonAt(advanced.result, 'available_at'));
  await tick();
  const fired = await flow.advance(intent.id, 'release');
  t.is(fired.statusCode, 409);
  t.like(fired.result, { error: { code: 'invalid_state_transition' } });

  t.deepEqual(await flow.eventTypes(intent.id), ['payment_intent.requires_payment', 'payment_intent.succeeded', 'payment_intent.channel_settled']);
});

test.serial('a pending attempt is answered again: no second order', async (t) => {
  const intent = await flow.createIntent();
  const first = await flow.attempt(intent.id);
  const second = await flow.attempt(intent.id, { payment_method: 'truemoney' });
  t.is(first.statusCode, 201);
  t.is(second.statusCode, 200);
  t.is(jsonAt(second.result, 'id'), jsonAt(first.result, 'id'));
  t.is((await flow.attempts(intent.id)).length, 1);
});

test.serial('concurrent attempt creates place exactly one channel order', async (t) => {
  const intent = await flow.createIntent();
  const answers = await Promise.all(Array.from({ length: 10 }, () => flow.attempt(intent.id)));
  const ids = new Set(answers.filter((res) => res.statusCode < 300).map((res) => jsonAt(res.result, 'id')));
  t.is(ids.size, 1, answers.map((res) => `${res.statusCode} ${res.payload.slice(0, 80)}`).join('\n'));
  t.is((await flow.attempts(intent.id)).length, 1);
  const leaked = (await flow.attempts(intent.id))[0].channel_order_id;
  const orders = await t0.app
    .get(SimulatorPaymentChannel)
    .queryOrder('test', typeof leaked === 'string' ? leaked : '')
    .catch(() => undefined);
  t.is(orders, undefined, 'the channel order id never leaves the service');
});

test.serial('a failed payment fails the intent; a new attempt makes it payable again', async (t) => {
  const intent = await flow.createIntent();
  await flow.attempt(intent.id);
  const failed = await flow.simulate(intent.id, { outcome: 'failed', failure_code: 'insufficient_funds' });
  t.like(failed.result, { status: 'failed' });
  t.like((await flow.attempts(intent.id))[0], { status: 'failed', failure_code: 'insufficient_funds' });
  const retry = await flow.attempt(intent.id, { payment_method: 'truemoney' });
  t.is(retry.statusCode, 201);
  t.is(jsonAt(retry.result, 'next_action', 'type'), 'redirect');
  t.like(await flow.intent(intent.id), { status: 'requires_payment' });
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.deepEqual(await flow.eventTypes(intent.id), [
    'payment_intent.requires_payment',
    'payment_intent.failed',
    'payment_intent.requires_payment',
    'payment_intent.succeeded',
  ]);
  const attempts = await flow.attempts(intent.id);
  t.deepEqual(
    attempts.map((a) => a.status),
    ['failed', 'succeeded'],
  );
});

test.serial('pending puts the intent in processing; the confirming query, not the callback amount, decides success', async (t) => {
  const intent = await flow.createIntent({ amount: 5000 });
  await flow.attempt(intent.id);
  t.like((await flow.simulate(intent.id, { outcome: 'pending' })).result, { status: 'processing' });
  const paid = await flow.simulate(intent.id, { outcome: 'succeeded', amount: 1 });
  t.like(paid.result, { status: 'succeeded', amount: 5000 });
});

test.serial('simulate rules: live key, no pending attempt, failure_code with another outcome, disputes, replayed key', async (t) => {
  const intent = await flow.createIntent();
  const noAttempt = await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.is(noAttempt.statusCode, 409);
  t.like(noAttempt.result, { error: { code: 'invalid_state_transition' } });
  await flow.attempt(intent.id);
  const mixed = await flow.simulate(intent.id, { outcome: 'succeeded', failure_code: 'risk_blocked' });
  t.is(mixed.statusCode, 400);
  t.like(mixed.result, { error: { param: 'failure_code' } });
  const badCode = await flow.simulate(intent.id, { outcome: 'failed', failure_code: 'expired' });
  t.is(badCode.statusCode, 400);
  const unknownOutcome = await flow.simulate(intent.id, { outcome: 'paid' });
  t.like(unknownOutcome.result, { error: { code: 'invalid_parameter', param: 'outcome' } });

  const key = unique();
  const first = await flow.simulate(intent.id, { outcome: 'succeeded' }, key);
  const replay = await flow.simulate(intent.id, { outcome: 'succeeded' }, key);
  t.is(replay.statusCode, 200);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(replay.payload, first.payload);
  const other = await flow.createIntent();
  const elsewhere = await flow.simulate(other.id, { outcome: 'succeeded' }, key);
  t.is(elsewhere.statusCode, 422);

  const live = await shop.liveKey();
  const liveFlow = paymentFlow(t0, live);
  const liveIntent = await liveFlow.createIntent();
  const refused = await liveFlow.simulate(liveIntent.id, { outcome: 'succeeded' });
  t.is(refused.statusCode, 403);
  t.like(refused.result, { error: { code: 'test_mode_required' } });
  const advance = await liveFlow.advance(liveIntent.id, 'expiry');
  t.like(advance.result, { error: { code: 'test_mode_required' } });
});

test.serial('magic amounts report their outcome on the next tick', async (t) => {
  const cases: Array<[number, string, string | undefined]> = [
    [10001, 'succeeded', undefined],
    [10002, 'failed', 'insufficient_funds'],
    [10003, 'failed', 'payer_cancelled'],
    [10004, 'failed', 'risk_blocked'],
    [10005, 'processing', undefined],
    [10006, 'requires_payment', undefined],
  ];
  const ids: string[] = [];
  for (const [amount] of cases) {
    const intent = await flow.createIntent({ amount });
    await flow.attempt(intent.id);
    ids.push(intent.id);
  }
  for (const id of ids) t.is((await flow.intent(id)).status, 'requires_payment');
  await tick();
  for (const [index, [, status, code]] of cases.entries()) {
    t.is((await flow.intent(ids[index])).status, status, `amount ${cases[index][0]}`);
    if (code) t.is((await flow.attempts(ids[index]))[0].failure_code, code);
  }
});

test.serial('a simulate call replaces a magic outcome not yet reported', async (t) => {
  const intent = await flow.createIntent({ amount: 20002 });
  await flow.attempt(intent.id);
  t.like((await flow.simulate(intent.id, { outcome: 'succeeded' })).result, { status: 'succeeded' });
  await tick();
  // The magic failure (02) was never reported: the payment stayed a success (and settled).
  t.is((await flow.attempts(intent.id))[0].status, 'succeeded');
  t.false((await flow.eventTypes(intent.id)).includes('payment_intent.failed'));
});

test.serial('expiry through advance and a tick voids the pending attempt; a late confirmed payment still succeeds', async (t) => {
  const intent = await flow.createIntent();
  const attempt = await flow.attempt(intent.id);
  const advanced = await flow.advance(intent.id, 'expiry');
  t.is(advanced.statusCode, 200);
  t.is(jsonAt(advanced.result, 'status'), 'requires_payment');
  await tick();
  t.is((await flow.intent(intent.id)).status, 'expired');
  t.like((await flow.attempts(intent.id))[0], { status: 'failed', failure_code: 'expired' });
  t.like((await flow.advance(intent.id, 'expiry')).result, { error: { code: 'invalid_state_transition' } });
  const cancel = await flow.post(`/v1/payment_intents/${intent.id}/cancel`);
  t.is(cancel.statusCode, 409);
  // The payer pays the voided order anyway and the channel confirms it: the money is not dropped.
  const orderId = textAt(attempt.result, 'next_action', 'qr_data').split('|')[2];
  await t0.app.get(SimulatorPaymentChannel).simulate('test', orderId, { status: 'paid' });
  t.like(await flow.intent(intent.id), { status: 'succeeded' });
  t.like((await flow.attempts(intent.id))[0], { status: 'succeeded' });
  t.deepEqual((await flow.eventTypes(intent.id)).slice(-2), ['payment_intent.expired', 'payment_intent.succeeded']);
});

test.serial('release before channel settlement is 409; advance never moves a timer later', async (t) => {
  const intent = await flow.createIntent({ expires_in: 600 });
  const early = await flow.advance(intent.id, 'release');
  t.is(early.statusCode, 409);
  t.like(early.result, { error: { code: 'invalid_state_transition' } });
  const first = objectAt((await flow.advance(intent.id, 'expiry')).result);
  clock.advance(1000);
  const second = objectAt((await flow.advance(intent.id, 'expiry')).result);
  t.is(second.expires_at, first.expires_at);
});

test.serial('cancel voids a pending attempt at the channel', async (t) => {
  const intent = await flow.createIntent();
  await flow.attempt(intent.id);
  const canceled = await flow.post(`/v1/payment_intents/${intent.id}/cancel`);
  t.like(canceled.result, { status: 'canceled' });
  t.like((await flow.attempts(intent.id))[0], { status: 'failed', failure_code: 'canceled' });
  t.is((await flow.attempt(intent.id)).statusCode, 409);
});

test.serial('attempt validation: unknown method, method of another currency, unknown channel, another merchant', async (t) => {
  const intent = await flow.createIntent();
  const unknown = await flow.attempt(intent.id, { payment_method: 'cash' });
  t.like(unknown.result, { error: { code: 'invalid_parameter', param: 'payment_method' } });
  const otherCurrency = await flow.attempt(intent.id, { payment_method: 'paynow' });
  t.like(otherCurrency.result, { error: { code: 'invalid_parameter', param: 'payment_method' } });
  const channel = await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'nowhere' });
  t.like(channel.result, { error: { code: 'invalid_parameter', param: 'channel' } });
  const missing = await flow.attempt(intent.id, {});
  t.like(missing.result, { error: { code: 'invalid_parameter', param: 'payment_method' } });
  const other = await t0.merchant();
  const theirs = await paymentFlow(t0, other.testKey).attempt(intent.id);
  t.is(theirs.statusCode, 404);
  t.is((await flow.attempts(intent.id)).length, 0);
});

test.serial('an intent in another currency locks its rate at the method lock point: QR on paid', async (t) => {
  const intent = await flow.createIntent({ amount: 10000, currency: 'SGD' });
  t.deepEqual(intent.fx, { locked: false, quote_currency: 'THB' });
  await flow.attempt(intent.id, { payment_method: 'paynow' });
  t.like((await flow.intent(intent.id)).fx, { locked: false, lock_point: 'on_paid' });
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  t.like(paid.fx, { locked: true, lock_point: 'on_paid', quote_currency: 'THB' });
  t.regex(textAt(paid, 'fx', 'rate'), /^\d+(\.\d+)?$/);
  t.is(typeof jsonAt(paid, 'fx', 'locked_at'), 'string');
  t.is(jsonAt(paid, 'fee', 'currency'), 'THB');
  t.is(jsonAt(paid, 'net', 'currency'), 'THB');
  // 100.00 SGD at roughly 25–27 THB per SGD, less the fee.
  const net = numberAt(paid, 'net', 'amount');
  t.true(net > 200_000 && net < 280_000, String(net));
});

test.serial('a wallet payment locks its rate only when the channel settles', async (t) => {
  const intent = await flow.createIntent({ amount: 2000, currency: 'USD' });
  await flow.attempt(intent.id, { payment_method: 'alipay_plus' });
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  t.like(paid, { status: 'succeeded', fx: { locked: false, lock_point: 'on_channel_settled' } });
  t.is(paid.fee, undefined);
  t.is(paid.net, undefined);
  await tick();
  const settled = await flow.intent(intent.id);
  t.like(settled, { status: 'channel_settled', fx: { locked: true, lock_point: 'on_channel_settled', quote_currency: 'THB' } });
  t.is(jsonAt(settled, 'net', 'currency'), 'THB');
  t.is(numberAt(settled, 'net', 'amount') + numberAt(settled, 'fee', 'amount') > 0, true);
});
