import test from 'ava';
import type { Dispute } from '../../../src/disputes/domain/dispute.entity';
import { merchantBalance } from '../../../src/ledger/domain/ledger';
import { paymentPosting } from '../../../src/ledger/domain/ledger-postings';
import type { AccountScope } from '../../../src/common/mode';
import type { PaymentAttempt } from '../../../src/payments/domain/payment-attempt.entity';
import { CoreError } from '../../../src/common/core-error';
import type { ChannelDisputeStatus } from '../../../src/payments/ports/payment-channel.port';
import { ReconcileDisputes } from '../../../src/disputes/use-cases/reconcile-disputes.use-case';
import { fakeAttempt, FakeChannel, fakeChannels, fakeIntent, harness } from '../harness';

const FEE = 1500;
const QUIET_MS = 3600_000;

/** A channel whose dispute book the test changes without sending any notice. */
class QuietChannel extends FakeChannel {
  readonly disputes = new Map<string, ChannelDisputeStatus>();
  readonly asked: string[] = [];
  down = false;

  async queryDispute(_mode: unknown, id: string): Promise<ChannelDisputeStatus> {
    this.asked.push(id);
    if (this.down) throw new CoreError('channel_error', 'unavailable', 'channel down');
    return this.disputes.get(id)!;
  }
  rule(id: string, status: ChannelDisputeStatus['status']): void {
    this.disputes.set(id, { ...this.disputes.get(id)!, status });
  }
}

async function setup() {
  const h = harness();
  const { storage, clock } = h;
  const { merchant } = await h.newMerchant();
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const channel = new QuietChannel();
  const record = h.recordDisputeReport(FEE);
  const reconcile = new ReconcileDisputes({
    disputes: storage.disputes,
    attempts: storage.attempts,
    channels: fakeChannels(channel),
    recordDisputeReport: record,
    clock,
    rules: { staleAfterMs: QUIET_MS },
  });
  let n = 0;

  /** A paid intent (net 9700 THB in pending) with a dispute the channel opened and notified. */
  const disputed = async (): Promise<{ dispute: Dispute; attempt: PaymentAttempt }> => {
    n += 1;
    const now = clock.now();
    const net = { amount: 9700, currency: 'THB' };
    const intent = fakeIntent(scope, now, {
      id: `pi_Q${n}${Date.now()}`,
      merchantOrderId: `q-${n}`,
      status: 'succeeded',
      net,
      fee: { amount: 300, currency: 'THB' },
    });
    await storage.intents.insert(intent);
    const attempt = fakeAttempt(intent, now, { id: `pa_Q${n}${Date.now()}`, status: 'succeeded', channelOrderId: `ord_${n}` });
    await storage.attempts.insert(attempt);
    await storage.ledger.post(paymentPosting({ id: intent.id, merchantId: scope.merchantId, mode: 'test', net, fee: { amount: 300, currency: 'THB' } }, now));
    const report: ChannelDisputeStatus = {
      channelDisputeId: `cd_${n}`,
      channelOrderId: `ord_${n}`,
      reference: attempt.id,
      status: 'opened',
      amount: 10000,
      currency: 'THB',
    };
    channel.disputes.set(report.channelDisputeId, report);
    return { dispute: await record.execute({ attempt, report }), attempt };
  };
  const balance = async () => merchantBalance(await storage.ledger.balances(scope));
  const events = async (id: string) =>
    (await storage.events.list(scope, {}, { limit: 100 })).data
      .filter((event) => event.data.id === id)
      .map((event) => event.type)
      .reverse();
  const stored = async (id: string) => (await storage.disputes.findById(scope, id))!;
  /** One reconciler pass over every lane: how many disputes it changed. */
  const runReconcile = async (limit: number): Promise<number> => (await h.runJob(reconcile, limit)).progressed;
  return { ...h, scope, channel, record, runReconcile, disputed, balance, events, stored };
}

const thb = (amount: number) => [{ amount: BigInt(amount), currency: 'THB' }];

test('a ruling the channel knows but never notified is applied once the dispute has been quiet long enough, and only once', async (t) => {
  const s = await setup();
  const { dispute } = await s.disputed();
  s.channel.rule(dispute.channelDisputeId, 'lost');
  t.is(await s.runReconcile(10), 0, 'not quiet long enough yet');
  t.is((await s.stored(dispute.id)).status, 'opened');
  t.deepEqual(s.channel.asked, []);

  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 1);
  t.like(await s.stored(dispute.id), { status: 'lost', fee: { amount: FEE, currency: 'THB' }, closedAt: s.clock.now() });
  t.like(await s.balance(), { pending: thb(0), available: thb(-FEE), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);

  // Later passes, and the notice arriving late after all, change nothing and post nothing twice.
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 0);
  t.is(s.channel.asked.length, 1, 'a ruled dispute is not asked about again');
  const [attempt] = await s.storage.attempts.listForIntent(s.scope, dispute.paymentIntentId);
  await s.record.execute({ attempt, report: s.channel.disputes.get(dispute.channelDisputeId)! });
  t.like(await s.balance(), { pending: thb(0), available: thb(-FEE), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);
});

test('two passes at once apply a ruling once', async (t) => {
  const s = await setup();
  const { dispute } = await s.disputed();
  s.channel.rule(dispute.channelDisputeId, 'won');
  s.clock.advance(QUIET_MS);
  // Both read the dispute as open before either records the ruling (the job's lock lease ran out).
  await Promise.all([s.runReconcile(10), s.runReconcile(10)]);
  t.is((await s.stored(dispute.id)).status, 'won');
  t.like(await s.balance(), { pending: thb(9700), dispute_hold: thb(0) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.closed']);
});

test('an open dispute the channel still has open stays as it is, and is asked again only an interval later', async (t) => {
  const s = await setup();
  const { dispute } = await s.disputed();
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 0);
  t.is(await s.runReconcile(10), 0);
  t.deepEqual(s.channel.asked, [dispute.channelDisputeId], 'asked once, not on every pass');
  t.like(await s.stored(dispute.id), { status: 'opened', updated: dispute.updated });
  t.like(await s.balance(), { dispute_hold: thb(9700) });
  t.deepEqual(await s.events(dispute.id), ['dispute.opened']);
  s.clock.advance(QUIET_MS);
  await s.runReconcile(10);
  t.is(s.channel.asked.length, 2);
  // The channel put it under review without telling: dispute.updated, no money moves.
  s.channel.rule(dispute.channelDisputeId, 'under_review');
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 1);
  t.is((await s.stored(dispute.id)).status, 'under_review');
  t.deepEqual(await s.events(dispute.id), ['dispute.opened', 'dispute.updated']);
  t.like(await s.balance(), { dispute_hold: thb(9700) });
});

test('oldest news first in a bounded batch; the rest wait their turn; a channel that is down is asked again later', async (t) => {
  const s = await setup();
  const first = await s.disputed();
  s.clock.advance(1000);
  const second = await s.disputed();
  s.clock.advance(1000);
  const third = await s.disputed();
  for (const { dispute } of [first, second, third]) s.channel.rule(dispute.channelDisputeId, 'won');
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(2), 2);
  t.deepEqual(s.channel.asked, [first.dispute.channelDisputeId, second.dispute.channelDisputeId]);
  t.is((await s.stored(third.dispute.id)).status, 'opened', 'beyond the batch: its turn comes next');

  s.channel.down = true;
  s.clock.advance(2000);
  t.is(await s.runReconcile(10), 0);
  t.is((await s.stored(third.dispute.id)).status, 'opened');
  s.channel.down = false;
  t.is(await s.runReconcile(10), 0, 'not again on the next pass');
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 1);
  t.is((await s.stored(third.dispute.id)).status, 'won');
});

test('an answer about another order or another dispute is not applied', async (t) => {
  const s = await setup();
  const { dispute } = await s.disputed();
  const other = await s.disputed();
  const report = s.channel.disputes.get(dispute.channelDisputeId)!;
  s.channel.disputes.set(dispute.channelDisputeId, {
    ...report,
    status: 'lost',
    reference: other.attempt.id,
    channelOrderId: other.attempt.channelOrderId!,
  });
  s.clock.advance(QUIET_MS);
  t.is(await s.runReconcile(10), 0);
  t.is((await s.stored(dispute.id)).status, 'opened');
  t.is((await s.stored(other.dispute.id)).status, 'opened');
  t.like(await s.balance(), { available: thb(0), dispute_hold: thb(2 * 9700) });
});
