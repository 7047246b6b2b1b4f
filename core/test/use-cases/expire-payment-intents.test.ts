import test from 'ava';
import type { AccountScope, Mode } from '../../src/common/mode';
import type { ChannelOrderStatus } from '../../src/payments/ports/payment-channel.port';
import { ExpirePaymentIntents } from '../../src/payments/use-cases/expire-payment-intents.use-case';
import { FakeChannel, fakeAttempt, fakeChannels, fakeIntent, harness } from './harness';

/** A channel whose orders are in the state the test sets (or that does not answer), and that records voids. */
class OrderDesk extends FakeChannel {
  state: ChannelOrderStatus['status'] | 'down' = 'pending';
  readonly voided: string[] = [];
  readonly queried: string[] = [];

  override async queryOrder(_mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    this.queried.push(channelOrderId);
    if (this.state === 'down') throw new Error('the channel did not answer');
    return { channelOrderId, reference: 'pa_Due1', status: this.state, amount: 10000, currency: 'THB' };
  }

  override async voidOrder(_mode: Mode, channelOrderId: string): Promise<void> {
    this.voided.push(channelOrderId);
  }
}

/** An intent past its expiry with an attempt still pending at the desk. */
async function setup() {
  const h = harness();
  const desk = new OrderDesk();
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const now = h.clock.now();
  const intent = fakeIntent(scope, now, { id: 'pi_Due1', merchantOrderId: 'due-1', expiresAt: new Date(now.getTime() + 60_000) });
  await h.storage.intents.insert(intent);
  await h.storage.attempts.insert(fakeAttempt(intent, now, { id: 'pa_Due1', status: 'pending', channelOrderId: 'ord_due1' }));
  const expire = new ExpirePaymentIntents({
    uow: h.storage.uow,
    ...h.statusChange,
    attempts: h.storage.attempts,
    channels: fakeChannels(desk),
    recordReport: h.recordChannelReport(),
  });
  h.clock.advance(60_000);
  const run = () => h.runJob(expire, 10);
  const status = async () => (await h.storage.intents.findById(scope, intent.id))?.status;
  const attempt = async () => h.storage.attempts.findById(scope, 'pa_Due1');
  return { ...h, desk, run, status, attempt };
}

test('an order the payer paid while every callback was lost: the expiry asks first, and the intent succeeds instead', async (t) => {
  const s = await setup();
  s.desk.state = 'paid';
  await s.run();
  t.is(await s.status(), 'succeeded');
  t.like(await s.attempt(), { status: 'succeeded' });
  t.deepEqual(s.desk.voided, []);
});

test('an order still pending at the channel: the intent expires, its attempt fails as expired, the order is voided', async (t) => {
  const s = await setup();
  await s.run();
  t.deepEqual(s.desk.queried, ['ord_due1']);
  t.is(await s.status(), 'expired');
  t.like(await s.attempt(), { status: 'failed', failureCode: 'expired' });
  t.deepEqual(s.desk.voided, ['ord_due1']);
});

test('a payer mid-payment (processing) holds the expiry; a failed order fails the intent rather than expire it', async (t) => {
  const processing = await setup();
  processing.desk.state = 'processing';
  await processing.run();
  t.is(await processing.status(), 'processing');

  const failed = await setup();
  failed.desk.state = 'failed';
  await failed.run();
  t.is(await failed.status(), 'failed');
  t.deepEqual(failed.desk.voided, []);
});

test('a channel that does not answer: the intent waits (nothing expired, the item fails and is tried again), then expires once it answers pending', async (t) => {
  const s = await setup();
  s.desk.state = 'down';
  const pass = await s.run();
  t.is(pass.progressed, 0);
  t.is(await s.status(), 'requires_payment');
  t.like(await s.attempt(), { status: 'pending' });
  s.desk.state = 'pending';
  // Past the failed item's backoff.
  s.clock.advance(60 * 60_000);
  await s.run();
  t.is(await s.status(), 'expired');
});
