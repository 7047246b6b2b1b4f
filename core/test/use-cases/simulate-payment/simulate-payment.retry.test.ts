import test from 'ava';
import { paymentDisputesOf } from '../../../src/disputes/use-cases/payment-disputes';
import { merchantBalance } from '../../../src/ledger/domain/ledger';
import type { AccountScope } from '../../../src/common/mode';
import type { PaymentIntent } from '../../../src/payments/domain/payment-intent.entity';
import { CoreError } from '../../../src/common/core-error';
import type {
  ChannelDisputeStatus,
  ChannelNotice,
  ChannelOrderStatus,
  SimulatedDisputeOutcome,
  SimulatedOutcome,
  SimulationInstruction,
} from '../../../src/payments/ports/payment-channel.port';
import { HandleChannelCallback } from '../../../src/payments/use-cases/handle-channel-callback.use-case';
import { SimulatePayment } from '../../../src/payments/use-cases/simulate-payment.use-case';
import { fakeAttempt, FakeChannel, fakeIntent, fakeCapabilities, fakeChannels, harness, noticeOf } from '../harness';

interface Told {
  readonly orderId: string;
  readonly key?: string;
  readonly instruction: string;
  readonly notice: ChannelNotice;
  delivered: boolean;
}

/**
 * A channel that can be told what to report and remembers each simulate call's key, like the
 * simulator. Its callbacks go straight to the callback use case; `refuse` makes the next ones
 * fail after the channel acted, as when the process dies before the callback lands.
 */
class RememberingChannel extends FakeChannel {
  override readonly capabilities = fakeCapabilities({ canSimulate: true });
  readonly orders = new Map<string, ChannelOrderStatus>();
  readonly disputes = new Map<string, ChannelDisputeStatus>();
  readonly told: Told[] = [];
  refuse = 0;
  deliver: (notice: ChannelNotice) => Promise<unknown> = async () => undefined;

  override async queryOrder(_mode: unknown, id: string): Promise<ChannelOrderStatus> {
    return this.orders.get(id)!;
  }
  async queryDispute(_mode: unknown, id: string): Promise<ChannelDisputeStatus> {
    return this.disputes.get(id)!;
  }
  override verifyCallback(_mode: unknown, _headers: unknown, rawBody: string): ChannelNotice {
    return noticeOf(rawBody);
  }

  async simulate(_mode: unknown, orderId: string, outcome: SimulatedOutcome, key?: string): Promise<void> {
    const order = this.orders.get(orderId)!;
    this.orders.set(orderId, { ...order, status: outcome.status, ...(outcome.failureCode ? { failureCode: outcome.failureCode } : {}) });
    await this.send({
      orderId,
      key,
      instruction: JSON.stringify({ kind: 'payment', outcome }),
      notice: { kind: 'order', channelOrderId: orderId, reference: order.reference, reportedStatus: outcome.status },
      delivered: false,
    });
  }

  async simulateDispute(_mode: unknown, orderId: string, outcome: SimulatedDisputeOutcome, key?: string): Promise<void> {
    const order = this.orders.get(orderId)!;
    const open = [...this.disputes.values()].find((d) => d.channelOrderId === orderId && (d.status === 'opened' || d.status === 'under_review'));
    if (outcome === 'opened' ? open !== undefined : open === undefined) throw new CoreError('invalid_state_transition', 'conflict', 'the channel refuses');
    const id = open?.channelDisputeId ?? `cd_${this.disputes.size + 1}`;
    this.disputes.set(id, {
      channelDisputeId: id,
      channelOrderId: orderId,
      reference: order.reference,
      status: outcome,
      amount: order.amount,
      currency: order.currency,
    });
    await this.send({
      orderId,
      key,
      instruction: JSON.stringify({ kind: 'dispute', outcome }),
      notice: { kind: 'dispute', channelDisputeId: id },
      delivered: false,
    });
  }

  /** An arrow property, so a test can take it away (a channel that keeps no record of keys). */
  confirmSimulation?: (mode: unknown, orderId: string, instruction: SimulationInstruction, key: string) => Promise<boolean> = async (
    _mode,
    orderId,
    instruction,
    key,
  ) => {
    const told = this.told.filter((entry) => entry.orderId === orderId && entry.key === key).at(-1);
    if (!told || told.instruction !== JSON.stringify(instruction)) return false;
    if (!told.delivered) await this.land(told);
    return true;
  };

  private async send(told: Told): Promise<void> {
    this.told.push(told);
    if (this.refuse > 0) {
      this.refuse -= 1;
      throw new CoreError('api_error', 'unavailable', 'the callback did not land');
    }
    await this.land(told);
  }

  private async land(told: Told): Promise<void> {
    await this.deliver(told.notice);
    told.delivered = true;
  }
}

async function setup() {
  const h = harness();
  const { storage, clock } = h;
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const channel = new RememberingChannel();
  const channels = fakeChannels(channel);
  const callbacks = new HandleChannelCallback({
    channels,
    attempts: storage.attempts,
    recordReport: h.recordChannelReport(),
    recordDisputeReport: h.recordDisputeReport(1500),
  });
  channel.deliver = (notice) => callbacks.execute({ channel: 'fake', mode: 'test', headers: {}, rawBody: JSON.stringify(notice) });
  const simulate = new SimulatePayment({ intents: storage.intents, attempts: storage.attempts, channels, disputes: paymentDisputesOf(storage.disputes) });
  let n = 0;

  /** An intent waiting for its payer: one pending attempt whose order the channel holds. */
  const pendingIntent = async (): Promise<PaymentIntent> => {
    n += 1;
    const now = clock.now();
    const intent = fakeIntent(scope, now, { id: `pi_R${n}${Date.now()}`, merchantOrderId: `r-${n}` });
    await storage.intents.insert(intent);
    const attempt = fakeAttempt(intent, now, { id: `pa_R${n}${Date.now()}`, status: 'pending', channelOrderId: `ord_${n}` });
    await storage.attempts.insert(attempt);
    channel.orders.set(`ord_${n}`, { channelOrderId: `ord_${n}`, reference: attempt.id, status: 'pending', amount: 10000, currency: 'THB' });
    return intent;
  };
  const run = (intentId: string, outcome: 'succeeded' | 'failed' | 'dispute_opened' | 'dispute_lost', simulationKey?: string) =>
    simulate.execute({ scope, intentId, outcome, ...(simulationKey === undefined ? {} : { simulationKey }) });
  return { ...h, scope, channel, simulate, pendingIntent, run };
}

test('a retry under the same key after the first try took effect answers the intent; a new key is still refused', async (t) => {
  const s = await setup();
  const intent = await s.pendingIntent();
  const first = await s.run(intent.id, 'succeeded', 'key-1');
  t.is(first.status, 'succeeded');
  // The process died before its answer was stored: the lease ran out and the client retries.
  const retry = await s.run(intent.id, 'succeeded', 'key-1');
  t.like(retry, { id: intent.id, status: 'succeeded', net: first.net });
  t.is(s.channel.told.length, 1, 'the channel is not told anything again');
  // Balances are exact BigInt.
  t.like(merchantBalance(await s.storage.ledger.balances(s.scope)), { pending: [{ amount: BigInt(first.net?.amount ?? -1), currency: 'THB' }] });

  const fresh = await t.throwsAsync(s.run(intent.id, 'succeeded', 'key-2'), { instanceOf: CoreError });
  t.like(fresh, { code: 'invalid_state_transition', category: 'conflict' });
  const otherOutcome = await t.throwsAsync(s.run(intent.id, 'failed', 'key-1'));
  t.like(otherOutcome, { code: 'invalid_state_transition' }, 'the key told the channel something else');
  await t.throwsAsync(s.run(intent.id, 'succeeded'), { code: 'invalid_state_transition' });
});

test('a first try whose callback never landed: the retry has it delivered and answers the intent once it landed', async (t) => {
  const s = await setup();
  const intent = await s.pendingIntent();
  s.channel.refuse = 1;
  await t.throwsAsync(s.run(intent.id, 'failed', 'key-f'), { code: 'api_error' });
  t.is((await s.storage.intents.findById(s.scope, intent.id))?.status, 'requires_payment');
  const retry = await s.run(intent.id, 'failed', 'key-f');
  t.like(retry, { id: intent.id, status: 'failed' });
  t.deepEqual(
    s.channel.told.map((told) => told.delivered),
    [true],
    "the first try's callback, delivered late, and no second instruction",
  );
});

test('a channel that keeps no record of keys refuses the retry as before', async (t) => {
  const s = await setup();
  s.channel.confirmSimulation = undefined;
  const intent = await s.pendingIntent();
  await s.run(intent.id, 'succeeded', 'key-1');
  await t.throwsAsync(s.run(intent.id, 'succeeded', 'key-1'), { code: 'invalid_state_transition' });
});

test('dispute outcomes: a retried open or ruling answers the intent and moves money once; a new key is refused', async (t) => {
  const s = await setup();
  const intent = await s.pendingIntent();
  const paid = await s.run(intent.id, 'succeeded', 'pay');
  const net = paid.net!.amount;
  await s.run(intent.id, 'dispute_opened', 'open');
  t.like(await s.run(intent.id, 'dispute_opened', 'open'), { id: intent.id, status: 'succeeded' });
  await t.throwsAsync(s.run(intent.id, 'dispute_opened', 'open-again'), { code: 'invalid_state_transition' });
  t.is((await s.storage.disputes.list(s.scope, { paymentIntentId: intent.id }, { limit: 10 })).data.length, 1);

  // The ruling's notice never lands before the process dies: the channel ruled, we did not hear.
  s.channel.refuse = 1;
  await t.throwsAsync(s.run(intent.id, 'dispute_lost', 'lose'), { code: 'api_error' });
  t.is((await s.storage.disputes.findLatestForIntent(s.scope, intent.id))?.status, 'opened');
  t.like(await s.run(intent.id, 'dispute_lost', 'lose'), { id: intent.id });
  t.like(await s.run(intent.id, 'dispute_lost', 'lose'), { id: intent.id });
  t.like(await s.storage.disputes.findLatestForIntent(s.scope, intent.id), { status: 'lost', fee: { amount: 1500, currency: 'THB' } });
  t.like(merchantBalance(await s.storage.ledger.balances(s.scope)), {
    pending: [{ amount: 0n, currency: 'THB' }],
    available: [{ amount: -1500n, currency: 'THB' }],
    dispute_hold: [{ amount: 0n, currency: 'THB' }],
  });
  t.true(net > 0);
  await t.throwsAsync(s.run(intent.id, 'dispute_lost', 'lose-again'), { code: 'invalid_state_transition' });
});
