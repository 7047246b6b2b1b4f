import test from 'ava';
import { randomBytes } from 'node:crypto';
import { InMemoryLockManager } from '@payments/in-memory';
import { merchantAccount } from '../../src/ledger/domain/ledger';
import type { SettlementSchedule } from '../../src/merchants/domain/merchant.entity';
import type { AccountScope } from '../../src/common/mode';
import type { Dispute } from '../../src/disputes/domain/dispute.entity';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import type { PayoutGateway, PayoutResult } from '../../src/settlements/ports/payout-gateway.port';
import type { Settlement } from '../../src/settlements/domain/settlement.entity';
import { CreateManualSettlement } from '../../src/settlements/use-cases/create-manual-settlement.use-case';
import { CreateScheduledSettlements } from '../../src/settlements/use-cases/create-scheduled-settlements.use-case';
import { GetNextSettlement } from '../../src/settlements/use-cases/get-next-settlement.use-case';
import { PaySettlement } from '../../src/settlements/use-cases/pay-settlement.use-case';
import { SummarizeSettlements } from '../../src/settlements/use-cases/summarize-settlements.use-case';
import type { SettlementDeps } from '../../src/settlements/use-cases/settlement-batch';
import { AuditRecorder } from '../../src/dashboard/use-cases/audit';
import { AesGcmSecretBox } from '@payments/node-runtime';
import { harness } from './harness';

/*
 * What a settlement covers (docs/settlements.md): the entries of available no settlement covered
 * yet, but those of the payments that wait and it does not cover; its amount is their sum, its
 * summary adds them up by line type, and the next settlement shown with the balance is what the
 * next one pays.
 */

const HOUR = 3_600_000;

class Bank implements PayoutGateway {
  next: PayoutResult = { status: 'paid' };
  queryAnswer: PayoutResult | undefined;
  supports(): boolean {
    return true;
  }
  async verifyDestination() {
    return { status: 'verified' as const };
  }
  async sendPayout(): Promise<PayoutResult> {
    return this.next;
  }
  async queryPayout(): Promise<PayoutResult | undefined> {
    return this.queryAnswer;
  }
}

async function setup(schedule: SettlementSchedule = 'manual') {
  const h = harness();
  const bank = new Bank();
  const deps: SettlementDeps = {
    settlements: h.storage.settlements,
    ledger: h.storage.ledger,
    funds: h.funds,
    events: h.storage.events,
    webhookEndpoints: h.storage.webhookEndpoints,
    webhookDeliveries: h.storage.webhookDeliveries,
    clock: h.clock,
    random: h.random,
  };
  const writers = { ...deps, uow: h.storage.uow, merchants: h.storage.merchants, locks: new InMemoryLockManager() };
  const pay = new PaySettlement({ ...writers, destinations: h.storage.payoutDestinations, secrets: new AesGcmSecretBox(randomBytes(32)), gateway: bank });
  const create = new CreateManualSettlement({ ...writers, pay, audit: new AuditRecorder({ log: h.storage.audit, clock: h.clock, random: h.random }) });
  const scheduled = new CreateScheduledSettlements(writers);
  const next = new GetNextSettlement({ settlements: h.storage.settlements, ledger: h.storage.ledger, merchants: h.storage.merchants, clock: h.clock });
  const summaries = new SummarizeSettlements({ ledger: h.storage.ledger });
  const { merchant } = await h.newMerchant();
  await h.storage.merchants.updateSettings(merchant.id, { settlementSchedule: schedule });
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const available = merchantAccount(scope, 'available', 'THB');
  let n = 0;

  /** A channel-settled payment of `net` (fee `fee`) booked like the real flow; released at `releasedAt` unless that is undefined (then due at `dueAt`). */
  const payment = async (
    net: number,
    releasedAt: Date | undefined = h.clock.now(),
    dueAt: Date = releasedAt ?? h.clock.now(),
    fee = 100,
  ): Promise<PaymentIntent> => {
    n += 1;
    const intent: PaymentIntent = {
      id: `pi_cover${n}${randomBytes(4).toString('hex')}`,
      merchantId: merchant.id,
      mode: 'test',
      amount: net + fee,
      currency: 'THB',
      merchantOrderId: `order-${n}`,
      status: 'channel_settled',
      metadata: {},
      fee: { amount: fee, currency: 'THB' },
      net: { amount: net, currency: 'THB' },
      availableAt: dueAt,
      ...(releasedAt === undefined ? {} : { releasedAt }),
      created: h.clock.now(),
      updated: h.clock.now(),
      version: 3,
    };
    await h.storage.intents.insert(intent);
    await h.funds.book(intent, h.clock.now());
    if (releasedAt) await h.funds.release(intent, releasedAt);
    return intent;
  };
  /** A refund of `debit` of the payment's net (the channel gives back `cleared`, as much by default). */
  const refund = async (intent: PaymentIntent, debit: number, cleared = debit) => {
    n += 1;
    const money = {
      id: `re_cover${n}`,
      channel: 'simulator',
      amount: cleared,
      currency: 'THB',
      debit: { amount: debit, currency: 'THB' },
      cleared: { amount: cleared, currency: 'THB' },
    };
    await h.funds.refundMade({ ...intent, fee: intent.fee!, net: intent.net! }, money, h.clock.now());
    return money;
  };
  const balance = async (): Promise<bigint> => (await h.storage.ledger.balances(scope)).find((row) => row.account === available)?.balance ?? 0n;
  const uncovered = async (): Promise<bigint> => (await h.storage.ledger.uncoveredEntries(available)).reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  /** What the entries naming the settlement add up to, its own aside, and the summary's total. */
  const covered = async (settlement: Settlement) => {
    const [coverage] = await h.storage.ledger.coveredTotals(available, [settlement.id]);
    const lines = coverage.causes.reduce((sum, cause) => sum + cause.amount, 0n);
    const summary = await summaries.one(settlement);
    const byType = Object.values(summary.lines).reduce((sum, line) => sum + line.amount, 0n);
    return { lines, summary, byType };
  };
  const scheduledPass = async () => (await h.runJob(scheduled, 100)).outcomes.flatMap(({ outcome }) => (typeof outcome === 'object' ? [outcome] : []));
  return { h, bank, pay, create, next, payment, refund, balance, uncovered, covered, scheduledPass, scope, available };
}

test('a settlement covers the entries it pays: they sum to its amount, its own entry names it, and what stays uncovered is the balance', async (t) => {
  const s = await setup();
  const first = await s.payment(5000);
  const settled = await s.create.execute({ scope: s.scope });
  t.is(settled.amount.amount, 5000);
  // After it: a refund of the settled payment, a new payment, a refund of that one.
  await s.refund(first, 700);
  const second = await s.payment(3000);
  await s.refund(second, 200);
  t.is(await s.balance(), 2100n);
  t.is(await s.uncovered(), 2100n, 'the uncovered entries are the balance');

  const next = await s.next.execute(s.scope);
  t.deepEqual(next, { amount: 2100n, currency: 'THB', trigger: 'manual' });
  const made = await s.create.execute({ scope: s.scope });
  t.like(made, { amount: { amount: 2100 }, payments: 1 });
  const { lines, summary, byType } = await s.covered(made);
  t.is(lines, 2100n);
  t.is(byType, 2100n);
  t.is(summary.other, 0n);
  t.like(summary.lines, {
    release: { count: 1, amount: 3000n, gross: 3100n, fee: 100n, net: 3000n },
    refund: { count: 2, amount: -900n },
  });
  t.is(await s.uncovered(), 0n);
  const own = await s.h.storage.ledger.uncoveredEntries(s.available);
  t.deepEqual(own, [], 'its own settlement_created entry is covered too');
  t.deepEqual(await s.next.execute(s.scope), { amount: 0n, currency: 'THB', trigger: 'manual' });
});

test('a failed payout returns its amount as an uncovered line, which the next settlement covers with the freed payments', async (t) => {
  const s = await setup();
  await s.payment(4000);
  s.bank.next = { status: 'failed', failureReason: 'account_closed' };
  const failed = await s.create.execute({ scope: s.scope });
  t.is(failed.status, 'failed');
  t.is((await s.covered(failed)).lines, 4000n, 'the failed one still names the lines it covered');
  s.bank.next = { status: 'paid' };
  const retried = await s.create.execute({ scope: s.scope });
  t.like(retried, { status: 'paid', amount: { amount: 4000 }, payments: 1 });
  const { summary } = await s.covered(retried);
  t.like(summary.lines, { release: { count: 0, amount: 0n }, settlement_failure: { count: 1, amount: 4000n } });
  t.is(summary.other, 0n);
});

test('a scheduled batch leaves the money of payments released after its period for the next one, refunds of them included', async (t) => {
  const s = await setup('daily');
  s.h.clock.set(new Date('2026-09-01T00:00:30Z'));
  await s.payment(3000, new Date('2026-08-31T10:00:00Z'));
  const later = await s.payment(2000, new Date('2026-09-01T00:00:10Z'));
  await s.refund(later, 500);
  t.is(await s.balance(), 4500n);
  const next = await s.next.execute(s.scope);
  t.deepEqual(next, { amount: 3000n, currency: 'THB', trigger: 'scheduled', scheduledFor: s.h.clock.now() }, 'the last period’s batch is due on the next pass');

  const [batch] = await s.scheduledPass();
  t.like(batch, { amount: { amount: 3000 }, payments: 1 });
  t.is((await s.covered(batch)).lines, 3000n);
  t.is(await s.uncovered(), 1500n, 'the later payment and its refund wait');

  // A payment whose release is due before midnight counts in the next batch already.
  const releasing = await s.payment(800, undefined, new Date('2026-09-01T18:00:00Z'));
  t.deepEqual(await s.next.execute(s.scope), {
    amount: 2300n,
    currency: 'THB',
    trigger: 'scheduled',
    scheduledFor: new Date('2026-09-02T00:00:00Z'),
  });
  s.h.clock.set(new Date('2026-09-01T18:00:00Z'));
  await s.h.funds.release({ ...releasing, releasedAt: s.h.clock.now() }, s.h.clock.now());
  await s.h.storage.intents.update({ ...releasing, releasedAt: s.h.clock.now() });
  s.h.clock.set(new Date('2026-09-02T00:00:30Z'));
  const [second] = await s.scheduledPass();
  t.like(second, { amount: { amount: 2300 }, payments: 2 });
  const { lines, summary } = await s.covered(second);
  t.is(lines, 2300n);
  t.like(summary.lines, { release: { count: 2, amount: 2800n, net: 2800n }, refund: { count: 1, amount: -500n } });
});

test('a scheduled batch that would pay nothing shows no next settlement until it would', async (t) => {
  const s = await setup('weekly');
  s.h.clock.set(new Date('2026-09-09T12:00:00Z'));
  t.deepEqual(await s.next.execute(s.scope), { amount: 0n, currency: 'THB', trigger: 'scheduled' });
  await s.payment(1000, new Date('2026-09-09T11:00:00Z'));
  t.deepEqual(await s.next.execute(s.scope), { amount: 1000n, currency: 'THB', trigger: 'scheduled', scheduledFor: new Date('2026-09-14T00:00:00Z') });
});

test('the next manual settlement is what pay-out-now pays, however the history went', async (t) => {
  const s = await setup();
  const steps: Array<() => Promise<unknown>> = [];
  const paid: PaymentIntent[] = [];
  for (let round = 0; round < 6; round += 1) {
    steps.push(async () => paid.push(await s.payment(1000 + round * 137)));
    steps.push(async () => paid[0] && (await s.refund(paid[0], 50 + round)));
    steps.push(async () => {
      s.bank.next = round % 3 === 0 ? { status: 'failed', failureReason: 'account_closed' } : { status: 'paid' };
      const expected = await s.next.execute(s.scope);
      try {
        const made = await s.create.execute({ scope: s.scope });
        t.is(BigInt(made.amount.amount), expected.amount);
        t.is((await s.covered(made)).lines, expected.amount);
      } catch {
        t.is(expected.amount, 0n);
      }
      s.h.clock.advance(HOUR);
    });
  }
  for (const step of steps) await step();
  t.is(await s.uncovered(), await s.balance());
});

test('the worked example of docs/settlements.md', async (t) => {
  const s = await setup();
  const refused = async (code: string) => {
    const error = await t.throwsAsync(() => s.create.execute({ scope: s.scope }));
    t.like(error, { code });
    t.deepEqual(await s.next.execute(s.scope), { amount: 0n, currency: 'THB', trigger: 'manual' });
  };
  const a = await s.payment(9700, s.h.clock.now(), s.h.clock.now(), 300);
  s.bank.next = { status: 'processing' };
  const st1 = await s.create.execute({ scope: s.scope });
  t.like(st1, { amount: { amount: 9700 }, payments: 1, status: 'processing' });
  await s.refund(a, 1940, 2000);
  const b = await s.payment(4850, s.h.clock.now(), s.h.clock.now(), 150);
  const dispute: Dispute = {
    id: 'dp_worked',
    merchantId: s.scope.merchantId,
    mode: 'test',
    paymentIntentId: b.id,
    status: 'opened',
    amount: 5000,
    currency: 'THB',
    reason: 'fraudulent',
    channel: 'simulator',
    channelDisputeId: 'sim_worked',
    evidence: {},
    dueBy: s.h.clock.now(),
    openedAt: s.h.clock.now(),
    created: s.h.clock.now(),
    updated: s.h.clock.now(),
  };
  await s.h.funds.disputeOpened(b, dispute.id, s.h.clock.now());
  await s.h.storage.disputes.insert(dispute);
  t.is(await s.uncovered(), -1940n);
  await refused('nothing_to_settle');
  await s.payment(970, s.h.clock.now(), s.h.clock.now(), 30);
  await refused('insufficient_available_balance');
  await s.h.funds.disputeRuled(b, dispute, 'won', { amount: 0, currency: 'THB' }, s.h.clock.now());
  await s.h.storage.disputes.update({ ...dispute, status: 'won' });
  t.is(await s.uncovered(), 3880n);
  s.bank.queryAnswer = { status: 'failed', failureReason: 'account_closed' };
  t.like(await s.pay.execute({ scope: s.scope, id: st1.id }), { settlement: { status: 'failed' } });
  t.is(await s.uncovered(), 13580n);
  t.deepEqual(await s.next.execute(s.scope), { amount: 13580n, currency: 'THB', trigger: 'manual' });

  s.bank.next = { status: 'paid' };
  const st2 = await s.create.execute({ scope: s.scope });
  t.like(st2, { amount: { amount: 13580 }, payments: 3, status: 'paid' });
  const { summary, lines } = await s.covered(st2);
  t.is(lines, 13580n);
  t.deepEqual(summary, {
    lines: {
      release: { count: 2, amount: 5820n, gross: 6000n, fee: 180n, net: 5820n },
      refund: { count: 1, amount: -1940n },
      refund_reversal: { count: 0, amount: 0n },
      dispute_hold: { count: 1, amount: -4850n },
      dispute_release: { count: 1, amount: 4850n },
      dispute_loss: { count: 0, amount: 0n },
      settlement_failure: { count: 1, amount: 9700n },
      adjustment: { count: 0, amount: 0n },
    },
    other: 0n,
  });
  t.is((await s.covered(st1)).lines, 9700n, 'the failed one keeps its own line');
});
