import test from 'ava';
import { signRestCallback } from '@payments/channel-rest';
import { sign } from '@payments/channel-simulator';
import {
  CoreError,
  ReconcileAttempts,
  ReportChannelSettlements,
  type ChannelCallback,
  type ChannelCapabilities,
  type ChannelOrderStatus,
  type Mode,
  type PaymentChannel,
  type PlaceOrderRequest,
  type PlaceOrderResult,
} from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { type paymentFlow, withMerchantFlow } from './helpers/payment-flow';
import type { TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { AppConfig, simulatorCallbackSecret } from '../src/container';
import type { Config } from '../src/config';
import { apiObjectAt, objectAt, textAt, type ApiObject } from './helpers/json';

/**
 * A channel under the test's control: it refuses orders for amounts ending in 99, never calls
 * back, and reports whatever the test sets on its confirming query.
 */
class ScriptedChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities = {
    name: 'scripted',
    modes: ['test', 'live'],
    methods: ['promptpay'],
    currencies: ['THB'],
    canSimulate: false,
    pendingTimeoutMs: 0,
  };
  readonly orders = new Map<string, ChannelOrderStatus>();
  placed = 0;
  queries = 0;
  down = false;

  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    this.placed += 1;
    if (request.amount % 100 === 99) return { outcome: 'refused', failureCode: 'risk_blocked', message: 'no' };
    const id = `scripted_${request.reference}`;
    this.orders.set(id, { channelOrderId: id, reference: request.reference, status: 'pending', amount: request.amount, currency: request.currency });
    return { outcome: 'placed', channelOrderId: id, nextAction: { type: 'qr_code', qrData: id } };
  }
  async queryOrder(_mode: Mode, id: string): Promise<ChannelOrderStatus> {
    this.queries += 1;
    if (this.down) throw new CoreError('channel_error', 'unavailable', 'down');
    const order = this.orders.get(id);
    if (!order) throw new CoreError('channel_error', 'unavailable', 'unknown');
    return order;
  }
  verifyCallback(): ChannelCallback {
    throw new CoreError('invalid_signature', 'authentication', 'scripted channel sends no callbacks');
  }
  async voidOrder(): Promise<void> {}
}

const clock = new FakeClock(new Date());
const scripted = new ScriptedChannel();
let t0: TestApp;
let flow: ReturnType<typeof paymentFlow>;

withMerchantFlow({ clock, channels: [scripted] }, (started) => ({ t0, flow } = started));

const callback = (path: string, body: string, headers: Record<string, string> = {}) =>
  t0.server.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...headers }, payload: body });

async function pendingSimulatorAttempt(): Promise<{ intent: ApiObject; attempt: ApiObject; orderId: string }> {
  const intent = await flow.createIntent();
  const attempt = apiObjectAt((await flow.attempt(intent.id)).result);
  const orderId = textAt(attempt, 'next_action', 'qr_data').split('|')[2];
  return { intent, attempt, orderId };
}

test.serial('callbacks with a missing or forged signature, or for another channel or mode, change nothing', async (t) => {
  const { intent, attempt, orderId } = await pendingSimulatorAttempt();
  const body = JSON.stringify({ id: orderId, reference: attempt.id, status: 'paid', amount: 10000, currency: 'THB' });
  const path = '/channels/simulator/callback/test';
  const unsigned = await callback(path, body);
  t.is(unsigned.statusCode, 401);
  t.like(unsigned.result, { error: { code: 'invalid_signature' } });
  const forged = await callback(path, body, { 'simulator-signature': sign(Buffer.alloc(32, 1), Math.floor(Date.now() / 1000), body) });
  t.is(forged.statusCode, 401);
  const wrongChannel = await callback('/channels/rest/callback/test', body, { 'channel-signature': signRestCallback('0123456789abcdef0123', body) });
  t.is(wrongChannel.statusCode, 404);
  const badMode = await callback('/channels/simulator/callback/prod', body);
  t.is(badMode.statusCode, 400);
  t.is((await flow.intent(intent.id)).status, 'requires_payment');
  t.is((await flow.attempts(intent.id))[0].status, 'pending');
});

test.serial('a refused order is a failed attempt and a 402 payment_failed, remembered under its key', async (t) => {
  const intent = await flow.createIntent({ amount: 1099 });
  const key = `refused-${Date.now()}`;
  const refused = await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' }, key);
  t.is(refused.statusCode, 402);
  t.like(refused.result, { error: { code: 'payment_failed' } });
  t.like((await flow.attempts(intent.id))[0], { status: 'failed', failure_code: 'risk_blocked', channel: 'scripted' });
  t.is((await flow.intent(intent.id)).status, 'failed');
  const placedBefore = scripted.placed;
  const replay = await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' }, key);
  t.is(replay.statusCode, 402);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(scripted.placed, placedBefore, 'a replay places no order');
});

test.serial('concurrent attempt creates place exactly one order with the channel', async (t) => {
  const intent = await flow.createIntent({ amount: 2500 });
  const before = scripted.placed;
  const answers = await Promise.all(Array.from({ length: 10 }, () => flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' })));
  t.is(scripted.placed - before, 1);
  t.is(answers.filter((res) => res.statusCode === 201).length, 1);
  t.true(answers.every((res) => res.statusCode === 201 || res.statusCode === 200 || res.statusCode === 409));
  t.is((await flow.attempts(intent.id)).length, 1);
});

test.serial('a lost callback: the reconciler asks the channel and records the payment', async (t) => {
  const intent = await flow.createIntent({ amount: 3000 });
  const attempt = objectAt((await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' })).result);
  const order = [...scripted.orders.values()].find((o) => o.reference === attempt.id)!;
  scripted.orders.set(order.channelOrderId, { ...order, status: 'paid' });
  t.is((await flow.intent(intent.id)).status, 'requires_payment');
  await runJob(t0.app, ReconcileAttempts, 100);
  t.is((await flow.intent(intent.id)).status, 'succeeded');
  // Run again: nothing changes, nothing is announced twice.
  await runJob(t0.app, ReconcileAttempts, 100);
  t.deepEqual(await flow.eventTypes(intent.id), ['payment_intent.requires_payment', 'payment_intent.succeeded']);
});

test.serial('a confirmed amount that differs from the order fails the attempt instead of succeeding', async (t) => {
  const intent = await flow.createIntent({ amount: 4000 });
  const attempt = objectAt((await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' })).result);
  const order = [...scripted.orders.values()].find((o) => o.reference === attempt.id)!;
  scripted.orders.set(order.channelOrderId, { ...order, status: 'paid', amount: 3999 });
  await runJob(t0.app, ReconcileAttempts, 100);
  t.is((await flow.intent(intent.id)).status, 'failed');
  t.like((await flow.attempts(intent.id))[0], { status: 'failed', failure_code: 'channel_error' });
});

test.serial('the same signed callback delivered twice changes nothing the second time', async (t) => {
  const { intent, attempt, orderId } = await pendingSimulatorAttempt();
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  const events = await flow.eventTypes(intent.id);
  const secret = simulatorCallbackSecret(t0.app.get<Config>(AppConfig).masterKey);
  const body = JSON.stringify({ id: orderId, reference: attempt.id, status: 'paid', amount: 10000, currency: 'THB' });
  for (let i = 0; i < 2; i += 1) {
    const res = await callback('/channels/simulator/callback/test', body, {
      'simulator-signature': sign(secret, Math.floor(clock.now().getTime() / 1000), body),
    });
    t.is(res.statusCode, 200);
    t.deepEqual(res.result, { received: true });
  }
  t.deepEqual(await flow.eventTypes(intent.id), events);
  t.is((await flow.intent(intent.id)).status, 'succeeded');
});

test.serial('a signed callback for an order of another attempt, or truncated, is refused', async (t) => {
  const { intent, attempt, orderId } = await pendingSimulatorAttempt();
  const other = await pendingSimulatorAttempt();
  const secret = simulatorCallbackSecret(t0.app.get<Config>(AppConfig).masterKey);
  const now = Math.floor(clock.now().getTime() / 1000);
  const mixed = JSON.stringify({ id: other.orderId, reference: attempt.id, status: 'paid', amount: 10000, currency: 'THB' });
  t.is((await callback('/channels/simulator/callback/test', mixed, { 'simulator-signature': sign(secret, now, mixed) })).statusCode, 404);
  const truncated = JSON.stringify({ id: orderId, reference: attempt.id, status: 'paid' }).slice(0, 30);
  const res = await callback('/channels/simulator/callback/test', truncated, { 'simulator-signature': sign(secret, now, truncated) });
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'invalid_callback' } });
  const stale = JSON.stringify({ id: orderId, reference: attempt.id, status: 'paid', amount: 1, currency: 'THB' });
  t.is((await callback('/channels/simulator/callback/test', stale, { 'simulator-signature': sign(secret, now - 3600, stale) })).statusCode, 401);
  t.is((await flow.intent(intent.id)).status, 'requires_payment');
  t.is((await flow.intent(other.intent.id)).status, 'requires_payment');
});

test.serial('a channel that is down is asked once per tick, not once per payment', async (t) => {
  for (let i = 0; i < 3; i += 1) {
    const intent = await flow.createIntent({ amount: 6000 + i });
    const attempt = objectAt((await flow.attempt(intent.id, { payment_method: 'promptpay', channel: 'scripted' })).result);
    const order = [...scripted.orders.values()].find((o) => o.reference === attempt.id)!;
    scripted.orders.set(order.channelOrderId, { ...order, status: 'paid' });
  }
  await runJob(t0.app, ReconcileAttempts, 100);
  scripted.down = true;
  try {
    const before = scripted.queries;
    await runJob(t0.app, ReportChannelSettlements, 100);
    t.is(scripted.queries - before, 1);
  } finally {
    scripted.down = false;
  }
});
