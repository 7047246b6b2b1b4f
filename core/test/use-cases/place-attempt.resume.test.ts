import test from 'ava';
import { InMemoryLockManager } from '@payments/in-memory';
import type { AccountScope } from '../../src/common/mode';
import type { ChannelNotice, ChannelOrderStatus, PlaceOrderRequest, PlaceOrderResult } from '../../src/payments/ports/payment-channel.port';
import { HandleChannelCallback } from '../../src/payments/use-cases/handle-channel-callback.use-case';
import { PlaceAttempt } from '../../src/payments/use-cases/place-attempt.use-case';
import { ReconcileAttempts } from '../../src/payments/use-cases/reconcile-attempts.use-case';
import { FakeChannel, fakeChannels, fakeIntent, harness, noticeOf } from './harness';

/**
 * A channel that keeps its orders by our reference (placing twice is one order) and decides them by
 * itself, as the simulator does for magic amounts. `dieAfterPlacing` makes the next placement take
 * the order and then fail, as a process killed before it recorded the channel's answer.
 */
class SelfDecidingChannel extends FakeChannel {
  readonly orders = new Map<string, ChannelOrderStatus>();
  readonly queried: string[] = [];
  dieAfterPlacing = false;

  override async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const known = [...this.orders.values()].find((order) => order.reference === request.reference);
    const order = known ?? {
      channelOrderId: `ord_${this.orders.size + 1}`,
      reference: request.reference,
      status: 'pending',
      amount: request.amount,
      currency: request.currency,
    };
    this.orders.set(order.channelOrderId, order);
    if (this.dieAfterPlacing) {
      this.dieAfterPlacing = false;
      throw new Error('the process died after the channel took the order');
    }
    return { outcome: 'placed', channelOrderId: order.channelOrderId, nextAction: { type: 'qr_code', qrData: order.channelOrderId } };
  }

  override async queryOrder(_mode: unknown, channelOrderId: string): Promise<ChannelOrderStatus> {
    this.queried.push(channelOrderId);
    return this.orders.get(channelOrderId)!;
  }

  override verifyCallback(_mode: unknown, _headers: unknown, rawBody: string): ChannelNotice {
    return noticeOf(rawBody);
  }

  /** The channel decides the order paid and says so in a callback. */
  pay(channelOrderId: string): ChannelNotice {
    const order = this.orders.get(channelOrderId)!;
    this.orders.set(channelOrderId, { ...order, status: 'paid' });
    return { kind: 'order', channelOrderId, reference: order.reference, reportedStatus: 'paid' };
  }
}

async function setup() {
  const h = harness();
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const channel = new SelfDecidingChannel();
  const channels = fakeChannels(channel);
  const recordReport = h.recordChannelReport();
  const place = new PlaceAttempt({
    ...h.statusChange,
    uow: h.storage.uow,
    locks: new InMemoryLockManager(),
    attempts: h.storage.attempts,
    channels,
    settings: { callbackBaseUrl: 'https://pay.example.com' },
  });
  const callbacks = new HandleChannelCallback({ channels, attempts: h.storage.attempts, recordReport });
  const reconcile = new ReconcileAttempts({ attempts: h.storage.attempts, channels, recordReport, clock: h.clock });
  let n = 0;
  const newIntent = async (): Promise<string> => {
    n += 1;
    const intent = fakeIntent(scope, h.clock.now(), { id: `pi_Resume${n}`, merchantOrderId: `resume-${n}`, status: 'created' });
    await h.storage.intents.insert(intent);
    return intent.id;
  };
  const callBack = (notice: ChannelNotice) => callbacks.execute({ channel: 'fake', mode: 'test', headers: {}, rawBody: JSON.stringify(notice) });
  const attempt = (intentId: string) => place.execute({ scope, intentId, paymentMethod: 'promptpay' });
  const status = async (intentId: string) => (await h.storage.intents.findById(scope, intentId))?.status;
  return { ...h, scope, channel, newIntent, attempt, callBack, status, reconcile: () => h.runJob(reconcile, 100) };
}

test("a placement resumed after a crash between placing and recording: the order the channel decided meanwhile is asked about on the reconciler's next pass", async (t) => {
  const s = await setup();
  const intentId = await s.newIntent();
  s.channel.dieAfterPlacing = true;
  await t.throwsAsync(s.attempt(intentId), { message: /process died/ });
  const [orderId] = s.channel.orders.keys();

  // The channel pays the order by itself; while no attempt names the order its callback is refused,
  // and the channel's retries run out long before the dead request's lock and key do.
  await t.throwsAsync(s.callBack(s.channel.pay(orderId)), { code: 'resource_not_found' });
  s.clock.advance(60_000);

  const resumed = await s.attempt(intentId);
  t.like(resumed, { created: true, attempt: { status: 'pending', channelOrderId: orderId } });
  t.is(await s.status(intentId), 'requires_payment');

  // No callback comes again: the reconciler asks at once, not after the channel's pending timeout.
  t.like(await s.reconcile(), { progressed: 1 });
  t.deepEqual(s.channel.queried, [orderId]);
  t.is(await s.status(intentId), 'succeeded');
  const [attempt] = await s.storage.attempts.listForIntent(s.scope, intentId);
  t.like(attempt, { id: resumed.attempt.id, status: 'succeeded' });
});

test('a placement that was not resumed is left to its callbacks until the pending timeout', async (t) => {
  const s = await setup();
  const intentId = await s.newIntent();
  const placed = await s.attempt(intentId);
  t.is(placed.attempt.nextCheckAt?.getTime(), s.clock.now().getTime() + s.channel.capabilities.pendingTimeoutMs);
  await s.reconcile();
  t.deepEqual(s.channel.queried, [], 'the reconciler does not ask about a fresh order');
  t.is(await s.status(intentId), 'requires_payment');
});
