import test from 'ava';
import { DISPUTE_RESPONSE_WINDOW_MS, type Dispute } from '../../src/disputes/domain/dispute.entity';
import { merchantBalance, type BalanceAmount, type MerchantBalance } from '../../src/ledger/domain/ledger';
import type { AccountScope } from '../../src/common/mode';
import type { Money } from '../../src/common/money';
import type { PaymentAttempt } from '../../src/payments/domain/payment-attempt.entity';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import { CoreError } from '../../src/common/core-error';
import type { ChannelDisputeStatus, ChannelNotice, PaymentChannel, SimulatedDisputeOutcome } from '../../src/payments/ports/payment-channel.port';
import { HandleChannelCallback } from '../../src/payments/use-cases/handle-channel-callback.use-case';
import { paymentDisputesOf } from '../../src/disputes/use-cases/payment-disputes';
import { GetDispute } from '../../src/disputes/use-cases/get-dispute.use-case';
import { ListDisputes } from '../../src/disputes/use-cases/list-disputes.use-case';
import type { DisputeWriteDeps } from '../../src/disputes/use-cases/record-dispute-report.use-case';
import { SimulatePayment } from '../../src/payments/use-cases/simulate-payment.use-case';
import { SubmitDisputeEvidence } from '../../src/disputes/use-cases/submit-dispute-evidence.use-case';
import { AuditRecorder } from '../../src/dashboard/use-cases/audit';
import { fakeAttempt, FakeChannel, fakeCapabilities, fakeChannels, fakeIntent, harness, noticeOf } from './harness';

const FEE = 2000;

/**
 * A channel that keeps disputes in a map, answers the dispute query from it and delivers its
 * notices straight to the callback use case (the HTTP hop is the API tests' business).
 */
class DisputingChannel extends FakeChannel {
  override readonly capabilities = fakeCapabilities({ modes: ['test', 'live'], canSimulate: true });
  readonly disputes = new Map<string, ChannelDisputeStatus & { evidence?: Record<string, string> }>();
  /** Our reference (attempt id) of each order, as the channel knows it. */
  readonly orders = new Map<string, string>();
  failEvidence = false;
  deliver: (notice: ChannelNotice) => Promise<unknown> = async () => undefined;
  private n = 0;

  override verifyCallback(_mode: unknown, _headers: unknown, rawBody: string): ChannelNotice {
    return noticeOf(rawBody);
  }
  async queryDispute(_mode: unknown, id: string): Promise<ChannelDisputeStatus> {
    const dispute = this.disputes.get(id);
    if (!dispute) throw new CoreError('channel_error', 'unavailable', 'no such dispute');
    const { evidence: _evidence, ...status } = dispute;
    return status;
  }
  async submitDisputeEvidence(_mode: unknown, id: string, evidence: Readonly<Record<string, string>>): Promise<void> {
    if (this.failEvidence) throw new CoreError('channel_error', 'unavailable', 'channel down');
    const dispute = this.disputes.get(id);
    if (dispute) this.disputes.set(id, { ...dispute, evidence: { ...evidence } });
  }
  /** Opens (or rules on) a dispute of the order and notifies it. */
  async simulateDispute(_mode: unknown, orderId: string, outcome: SimulatedDisputeOutcome, reference = 'ref'): Promise<void> {
    const open = [...this.disputes.values()].reverse().find((d) => d.channelOrderId === orderId && (d.status === 'opened' || d.status === 'under_review'));
    if (outcome === 'opened') {
      this.n += 1;
      this.disputes.set(`cd_${this.n}`, {
        channelDisputeId: `cd_${this.n}`,
        channelOrderId: orderId,
        reference: this.orders.get(orderId) ?? reference,
        status: 'opened',
        amount: 10000,
        currency: 'THB',
        reason: 'fraudulent',
      });
      await this.deliver({ kind: 'dispute', channelDisputeId: `cd_${this.n}` });
      return;
    }
    if (!open) throw new CoreError('invalid_state_transition', 'conflict', 'no open dispute');
    this.disputes.set(open.channelDisputeId, { ...open, status: outcome });
    await this.deliver({ kind: 'dispute', channelDisputeId: open.channelDisputeId });
  }
  /** Sets what the query answers without notifying. */
  set(id: string, change: Partial<ChannelDisputeStatus>): void {
    this.disputes.set(id, { ...this.disputes.get(id)!, ...change });
  }
}

async function setup() {
  const h = harness();
  const { storage, clock } = h;
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const channel = new DisputingChannel();
  const channels = fakeChannels(channel);
  const deps: DisputeWriteDeps = { ...h.statusChange, uow: storage.uow, disputes: storage.disputes, funds: h.funds };
  const record = h.recordDisputeReport(FEE);
  const callbacks = new HandleChannelCallback({ channels, attempts: storage.attempts, recordReport: h.recordChannelReport(), recordDisputeReport: record });
  const deliver = (notice: ChannelNotice) => callbacks.execute({ channel: 'fake', mode: 'test', headers: {}, rawBody: JSON.stringify(notice) });
  channel.deliver = deliver;
  const evidence = new SubmitDisputeEvidence({ ...deps, channels, audit: new AuditRecorder({ log: storage.audit, clock: h.clock, random: h.random }) });
  const simulate = new SimulatePayment({ intents: storage.intents, attempts: storage.attempts, channels, disputes: paymentDisputesOf(storage.disputes) });
  let n = 0;

  /** A paid intent (net booked to pending) and its succeeded attempt, as the payment slice leaves them. */
  const paidIntent = async (options: { net?: Money | null; released?: boolean; status?: PaymentIntent['status'] } = {}) => {
    n += 1;
    const now = clock.now();
    const net = options.net === null ? undefined : (options.net ?? { amount: 9700, currency: 'THB' });
    const intent = fakeIntent(scope, now, {
      id: `pi_T${n}${Date.now()}`,
      merchantOrderId: `o-${n}`,
      status: options.status ?? 'succeeded',
      ...(net ? { net, fee: { amount: 10000 - net.amount, currency: 'THB' } } : {}),
      ...(options.released ? { releasedAt: now, availableAt: now } : {}),
    });
    await storage.intents.insert(intent);
    const attempt = fakeAttempt(intent, now, {
      id: `pa_T${n}${Date.now()}`,
      status: options.status === 'requires_payment' ? 'pending' : 'succeeded',
      channelOrderId: `ord_${n}`,
    });
    await storage.attempts.insert(attempt);
    channel.orders.set(attempt.channelOrderId!, attempt.id);
    if (net && options.status !== 'requires_payment') {
      await h.funds.book(intent, now);
      // What the release timer books: pending → available.
      if (options.released) await h.funds.release(intent, now);
    }
    return { intent, attempt };
  };

  /** Opens a channel dispute on the attempt's order and returns our record of it. */
  const open = async (attempt: PaymentAttempt): Promise<{ dispute: Dispute; channelDisputeId: string }> => {
    await channel.simulateDispute('test', attempt.channelOrderId!, 'opened', attempt.id);
    const dispute = (await storage.disputes.findLatestForIntent(scope, attempt.paymentIntentId))!;
    return { dispute, channelDisputeId: dispute.channelDisputeId };
  };
  const balance = async (): Promise<MerchantBalance> => merchantBalance(await storage.ledger.balances(scope));
  const events = async (id: string) =>
    (await storage.events.list(scope, {}, { limit: 100 })).data
      .filter((event) => event.data.id === id)
      .map((event) => event.type)
      .reverse();
  return {
    ...h,
    scope,
    channel,
    deliver,
    record,
    evidence,
    simulate,
    paidIntent,
    open,
    balance,
    events,
    get: new GetDispute({ disputes: storage.disputes }),
    list: new ListDisputes({ disputes: storage.disputes }),
  };
}

/** One THB entry of a balance bucket (balances are exact BigInt). */
const thb = (amount: number): BalanceAmount[] => [{ amount: BigInt(amount), currency: 'THB' }];

test('an opened dispute holds the net from pending before release, is due in 7 days and emits dispute.opened', async (t) => {
  const s = await setup();
  const { attempt, intent } = await s.paidIntent();
  const { dispute } = await s.open(attempt);
  t.like(dispute, {
    paymentIntentId: intent.id,
    status: 'opened',
    amount: 10000,
    currency: 'THB',
    held: { amount: 9700, currency: 'THB' },
    heldFrom: 'pending',
    reason: 'fraudulent',
    channel: 'fake',
    evidence: {},
  });
  t.is(dispute.dueBy.getTime() - dispute.openedAt.getTime(), DISPUTE_RESPONSE_WINDOW_MS);
  t.like(await s.balance(), { pending: thb(0), available: thb(0), dispute_hold: thb(9700) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened']);
  t.deepEqual(await s.get.execute({ scope: s.scope, id: dispute.id }), dispute);
});

test('after release the hold comes from available; a win returns it to available', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent({ released: true });
  const { dispute } = await s.open(attempt);
  t.is(dispute.heldFrom, 'available');
  t.like(await s.balance(), { available: thb(0), dispute_hold: thb(9700) });
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'won');
  const won = await s.get.execute({ scope: s.scope, id: dispute.id });
  t.like(won, { status: 'won', closedAt: s.clock.now() });
  t.is(won.fee, undefined);
  t.like(await s.balance(), { available: thb(9700), pending: thb(0), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);
});

test('a win before release returns the hold to pending; one after a release that happened meanwhile to available', async (t) => {
  const s = await setup();
  const early = await s.paidIntent();
  await s.open(early.attempt);
  await s.channel.simulateDispute('test', early.attempt.channelOrderId!, 'won');
  t.like(await s.balance(), { pending: thb(9700), available: thb(0), dispute_hold: thb(0) });

  const s2 = await setup();
  const late = await s2.paidIntent();
  await s2.open(late.attempt);
  // The release timer fires while the dispute holds the money: it marks the intent, moves nothing.
  const intent = (await s2.storage.intents.findById(s2.scope, late.intent.id))!;
  await s2.storage.intents.update({ ...intent, releasedAt: s2.clock.now() });
  await s2.channel.simulateDispute('test', late.attempt.channelOrderId!, 'won');
  t.like(await s2.balance(), { pending: thb(0), available: thb(9700), dispute_hold: thb(0) });
});

test('a loss gives the hold to the channel and debits the configured fee from available, which may go negative', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  const { dispute } = await s.open(attempt);
  s.clock.advance(60_000);
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'lost');
  const lost = await s.get.execute({ scope: s.scope, id: dispute.id });
  t.like(lost, { status: 'lost', fee: { amount: FEE, currency: 'THB' }, held: { amount: 9700, currency: 'THB' }, closedAt: s.clock.now() });
  t.like(await s.balance(), { available: thb(-FEE), pending: thb(0), dispute_hold: thb(0) });
  t.true(await s.storage.ledger.hasPosted(`dispute_lost:${dispute.id}`));
});

test('a replayed notice changes nothing and posts nothing twice, in parallel too', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  const { dispute, channelDisputeId } = await s.open(attempt);
  await Promise.all(Array.from({ length: 10 }, () => s.deliver({ kind: 'dispute', channelDisputeId })));
  t.is((await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 100 } })).data.length, 1);
  t.like(await s.balance(), { dispute_hold: thb(9700) });
  s.channel.set(channelDisputeId, { status: 'lost' });
  await Promise.all(Array.from({ length: 10 }, () => s.deliver({ kind: 'dispute', channelDisputeId })));
  t.like(await s.balance(), { available: thb(-FEE), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);
  // A ruled dispute stays ruled whatever the channel says later.
  s.channel.set(channelDisputeId, { status: 'won' });
  await s.deliver({ kind: 'dispute', channelDisputeId });
  t.is((await s.get.execute({ scope: s.scope, id: dispute.id })).status, 'lost');
  t.like(await s.balance(), { available: thb(-FEE), dispute_hold: thb(0) });
});

test('a dispute first heard of already ruled is opened and ruled in one go', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  s.channel.disputes.set('cd_late', {
    channelDisputeId: 'cd_late',
    channelOrderId: attempt.channelOrderId!,
    reference: attempt.id,
    status: 'lost',
    amount: 10000,
    currency: 'THB',
  });
  await s.deliver({ kind: 'dispute', channelDisputeId: 'cd_late' });
  const dispute = (await s.storage.disputes.findByChannelDisputeId('fake', 'test', 'cd_late'))!;
  t.like(dispute, { status: 'lost', held: { amount: 9700 }, fee: { amount: FEE } });
  t.like(await s.balance(), { available: thb(-FEE), pending: thb(0), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);
});

test('the channel putting a dispute under review emits dispute.updated once', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  const { dispute, channelDisputeId } = await s.open(attempt);
  s.channel.set(channelDisputeId, { status: 'under_review' });
  await s.deliver({ kind: 'dispute', channelDisputeId });
  await s.deliver({ kind: 'dispute', channelDisputeId });
  t.is((await s.get.execute({ scope: s.scope, id: dispute.id })).status, 'under_review');
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.updated']);
});

test('an intent without a net yet opens a dispute that holds nothing and posts nothing; a loss still costs the fee', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent({ net: null });
  const { dispute } = await s.open(attempt);
  t.is(dispute.held, undefined);
  t.is(dispute.heldFrom, undefined);
  t.false(await s.storage.ledger.hasPosted(`dispute_opened:${dispute.id}`));
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'lost');
  t.like(await s.get.execute({ scope: s.scope, id: dispute.id }), { status: 'lost', fee: { amount: FEE, currency: 'THB' } });
  t.like(await s.balance(), { available: thb(-FEE), dispute_hold: thb(0) });
});

test('a second dispute the channel opens while one is open does not hold the net twice', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  await s.open(attempt);
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'opened', attempt.id);
  const all = (await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 10 } })).data;
  t.is(all.length, 2);
  t.is(all[0].held, undefined);
  t.like(await s.balance(), { dispute_hold: thb(9700), pending: thb(0) });
});

test('a dispute the channel opens after one was lost holds nothing: the money is gone already', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  await s.open(attempt);
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'lost', attempt.id);
  const afterLoss = await s.balance();
  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'opened', attempt.id);
  const reopened = (await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 1 } })).data[0];
  t.like(reopened, { status: 'opened', held: undefined });
  t.deepEqual(await s.balance(), afterLoss, 'pending stays at zero instead of going negative');
});

test('a notice whose query names an order of another channel, mode or no attempt is refused', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  s.channel.disputes.set('cd_x', {
    channelDisputeId: 'cd_x',
    channelOrderId: 'ord_other',
    reference: attempt.id,
    status: 'opened',
    amount: 1,
    currency: 'THB',
  });
  await t.throwsAsync(s.deliver({ kind: 'dispute', channelDisputeId: 'cd_x' }), { instanceOf: CoreError, code: 'resource_not_found' });
  s.channel.disputes.set('cd_y', { channelDisputeId: 'cd_y', channelOrderId: 'ord_1', reference: 'pa_unknown', status: 'opened', amount: 1, currency: 'THB' });
  await t.throwsAsync(s.deliver({ kind: 'dispute', channelDisputeId: 'cd_y' }), { code: 'resource_not_found' });
  await t.throwsAsync(s.deliver({ kind: 'dispute', channelDisputeId: 'cd_missing' }), { code: 'channel_error' });
  t.is((await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 10 } })).data.length, 0);
});

test('evidence merges key by key, forwards the merged set, moves opened to under_review and emits dispute.updated', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  const { dispute, channelDisputeId } = await s.open(attempt);
  const first = await s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: { receipt: 'r1', note: 'a' } });
  t.like(first, { status: 'under_review', evidence: { receipt: 'r1', note: 'a' } });
  const second = await s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: { note: 'b' } });
  t.deepEqual({ ...second.evidence }, { receipt: 'r1', note: 'b' });
  t.deepEqual(s.channel.disputes.get(channelDisputeId)?.evidence, { receipt: 'r1', note: 'b' });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.updated', 'dispute.updated']);
});

test('evidence: a channel failure stores nothing; a ruled dispute is dispute_closed; unknown or foreign is 404; over 50 keys is refused', async (t) => {
  const s = await setup();
  const { attempt } = await s.paidIntent();
  const { dispute } = await s.open(attempt);
  s.channel.failEvidence = true;
  await t.throwsAsync(s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: { k: 'v' } }), { code: 'channel_error' });
  t.like(await s.get.execute({ scope: s.scope, id: dispute.id }), { status: 'opened', evidence: {} });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened']);
  s.channel.failEvidence = false;

  const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
  await s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: many });
  await t.throwsAsync(s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: { more: 'v' } }), { code: 'invalid_parameter' });

  await t.throwsAsync(s.evidence.execute({ scope: { ...s.scope, mode: 'live' }, disputeId: dispute.id, evidence: { k: 'v' } }), { code: 'resource_not_found' });
  await t.throwsAsync(s.evidence.execute({ scope: { merchantId: 'mch_other', mode: 'test' }, disputeId: dispute.id, evidence: { k: 'v' } }), {
    code: 'resource_not_found',
  });
  await t.throwsAsync(s.get.execute({ scope: { merchantId: 'mch_other', mode: 'test' }, id: dispute.id }), { code: 'resource_not_found' });

  await s.channel.simulateDispute('test', attempt.channelOrderId!, 'won');
  const closed = await t.throwsAsync(s.evidence.execute({ scope: s.scope, disputeId: dispute.id, evidence: { k: 'v' } }));
  t.like(closed, { code: 'dispute_closed', category: 'conflict' });
});

test('simulated dispute outcomes: paid intents only, one open dispute, rulings need one, the answer is the intent', async (t) => {
  const s = await setup();
  const unpaid = await s.paidIntent({ status: 'requires_payment' });
  await t.throwsAsync(s.simulate.execute({ scope: s.scope, intentId: unpaid.intent.id, outcome: 'dispute_opened' }), { code: 'invalid_state_transition' });

  const { intent } = await s.paidIntent();
  for (const outcome of ['dispute_won', 'dispute_lost'] as const) {
    await t.throwsAsync(s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome }), { code: 'invalid_state_transition' });
  }
  const answer = await s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome: 'dispute_opened' });
  t.like(answer, { id: intent.id, status: 'succeeded' });
  await t.throwsAsync(s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome: 'dispute_opened' }), { code: 'invalid_state_transition' });
  await s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome: 'dispute_lost' });
  t.is((await s.storage.disputes.findLatestForIntent(s.scope, intent.id))?.status, 'lost');
  await t.throwsAsync(s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome: 'dispute_won' }), { code: 'invalid_state_transition' });
  await t.throwsAsync(s.simulate.execute({ scope: s.scope, intentId: intent.id, outcome: 'dispute_opened', amount: 1 }), { code: 'invalid_parameter' });
  await t.throwsAsync(s.simulate.execute({ scope: { ...s.scope, mode: 'live' }, intentId: intent.id, outcome: 'dispute_opened' }), {
    code: 'test_mode_required',
  });

  // A channel that cannot be told to dispute.
  const muteChannel: PaymentChannel = {
    capabilities: s.channel.capabilities,
    placeOrder: (request) => s.channel.placeOrder(request),
    queryOrder: (mode, id) => s.channel.queryOrder(mode, id),
    verifyCallback: (mode, headers, rawBody) => s.channel.verifyCallback(mode, headers, rawBody),
    voidOrder: (mode, id) => s.channel.voidOrder(mode, id),
  };
  const mute = new SimulatePayment({
    intents: s.storage.intents,
    attempts: s.storage.attempts,
    channels: { find: () => muteChannel, forMode: () => [] },
    disputes: paymentDisputesOf(s.storage.disputes),
  });
  const other = await s.paidIntent();
  await t.throwsAsync(mute.execute({ scope: s.scope, intentId: other.intent.id, outcome: 'dispute_opened' }), { code: 'simulation_unsupported' });
});

test('lists are newest first, filter by status and page with starting_after', async (t) => {
  const s = await setup();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await s.open((await s.paidIntent()).attempt)).dispute.id);
  await s.evidence.execute({ scope: s.scope, disputeId: ids[1], evidence: { k: 'v' } });
  const page = await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 2 } });
  t.deepEqual(
    page.data.map((d) => d.id),
    [ids[2], ids[1]],
  );
  t.true(page.hasMore);
  const rest = await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 2, startingAfter: ids[1] } });
  t.deepEqual(
    rest.data.map((d) => d.id),
    [ids[0]],
  );
  t.false(rest.hasMore);
  t.deepEqual(
    (await s.list.execute({ scope: s.scope, filter: { status: 'under_review' }, page: { limit: 10 } })).data.map((d) => d.id),
    [ids[1]],
  );
  await t.throwsAsync(s.list.execute({ scope: s.scope, filter: {}, page: { limit: 2, startingAfter: 'dp_unknown' } }), { code: 'invalid_parameter' });
});

test('a channel dispute id known in test and in live is two disputes, and a repeated report of either changes nothing', async (t) => {
  const s = await setup();
  const { attempt: testAttempt } = await s.paidIntent();
  // The same merchant's live payment through the same channel, unpriced (so no hold and no posting).
  const now = s.clock.now();
  const live: AccountScope = { merchantId: s.scope.merchantId, mode: 'live' };
  const liveIntent: PaymentIntent = {
    id: 'pi_Tlive1',
    merchantId: live.merchantId,
    mode: 'live',
    amount: 10000,
    currency: 'THB',
    merchantOrderId: 'o-live',
    status: 'succeeded',
    metadata: {},
    created: now,
    updated: now,
    version: 0,
  };
  const liveAttempt: PaymentAttempt = { ...testAttempt, id: 'pa_Tlive1', paymentIntentId: liveIntent.id, mode: 'live', channelOrderId: 'ord_live' };
  await s.storage.intents.insert(liveIntent);
  await s.storage.attempts.insert(liveAttempt);
  const opened = (attempt: PaymentAttempt): ChannelDisputeStatus => ({
    channelDisputeId: 'cd_same_number',
    channelOrderId: attempt.channelOrderId!,
    reference: attempt.id,
    status: 'opened',
    amount: 10000,
    currency: 'THB',
  });

  const inTest = await s.record.execute({ attempt: testAttempt, report: opened(testAttempt) });
  const inLive = await s.record.execute({ attempt: liveAttempt, report: opened(liveAttempt) });
  t.not(inLive.id, inTest.id);
  t.like(inLive, { mode: 'live', paymentIntentId: liveIntent.id, channelDisputeId: 'cd_same_number' });
  t.like(inTest, { mode: 'test', paymentIntentId: testAttempt.paymentIntentId, channelDisputeId: 'cd_same_number' });
  t.is((await s.record.execute({ attempt: liveAttempt, report: opened(liveAttempt) })).id, inLive.id);
  t.is((await s.record.execute({ attempt: testAttempt, report: opened(testAttempt) })).id, inTest.id);
  t.deepEqual(
    (await s.list.execute({ scope: live, filter: {}, page: { limit: 10 } })).data.map((d) => d.id),
    [inLive.id],
  );
  t.deepEqual(
    (await s.list.execute({ scope: s.scope, filter: {}, page: { limit: 10 } })).data.map((d) => d.id),
    [inTest.id],
  );
});
