import test from 'ava';
import fc from 'fast-check';
import type { Dispute } from '../../src/disputes/domain/dispute.entity';
import { MAX_AMOUNT } from '../../src/common/money';
import type { PaymentAttempt } from '../../src/payments/domain/payment-attempt.entity';
import { openSettlement } from '../../src/settlements/use-cases/settlement-batch';
import { isCoreError } from '../../src/common/core-error';
import type { ChannelDisputeStatusName, ChannelOrderStatus } from '../../src/payments/ports/payment-channel.port';
import { ReleaseFunds } from '../../src/payments/use-cases/release-funds.use-case';
import { JobPass } from '../../src/jobs/use-cases/item-job';
import { FakeChannel, fakeCapabilities, fakeChannels } from './harness';
import { edgeShop } from './money-fixtures';
import { disputeInterleavings, type DisputeStep } from './dispute-interleavings';

/*
 * The money jobs at the edges: a wallet payment whose converted fee and net round to 0 or would
 * pass 2^53 − 1 when the channel settles, and disputes opened before or after a payment is priced
 * with every outcome: nothing throws that should not, the ledger stays whole, lost money never
 * stays available nor reaches a payout.
 */

const DAY = 24 * 3600 * 1000;
const DISPUTE_FEE = 1500;

/** A channel that reports every order paid and settled, for the channel settlement job. */
class SettledChannel extends FakeChannel {
  override readonly capabilities = fakeCapabilities({ modes: ['test', 'live'], methods: ['alipay_plus'], currencies: ['IDR'] });
  readonly orders = new Map<string, PaymentAttempt>();
  constructor(private readonly now: () => Date) {
    super();
  }
  override async queryOrder(_mode: unknown, channelOrderId: string): Promise<ChannelOrderStatus> {
    const attempt = this.orders.get(channelOrderId)!;
    return { channelOrderId, reference: attempt.id, status: 'paid', amount: attempt.amount, currency: attempt.currency, settledAt: this.now() };
  }
}

async function setup(settlementCurrency = 'THB') {
  // The channel needs the shop's clock; the shop tells it of payments only once they are made.
  const shop = await edgeShop(settlementCurrency, (attempt) => fake.orders.set(attempt.channelOrderId!, attempt));
  const { storage, clock } = shop;
  const fake = new SettledChannel(() => clock.now());
  const reportSettlements = shop.reportChannelSettlements(fakeChannels(fake));
  const release = new ReleaseFunds({
    uow: storage.uow,
    intents: storage.intents,
    funds: shop.funds,
    clock,
  });
  const disputes = shop.recordDisputeReport(DISPUTE_FEE);
  const { intentOf } = shop;
  /** The channel reports the funds settled: the rate locks, the payment is priced and booked. */
  const channelSettles = async (id: string) => reportSettlements.handle(await intentOf(id), new JobPass());
  /** The release timer, once the settlement delay has passed. */
  const releaseFunds = async (id: string) => {
    clock.advance(31 * DAY);
    return release.handle(await intentOf(id));
  };
  let disputeNumber = 0;
  const dispute = async (attempt: PaymentAttempt, status: ChannelDisputeStatusName, channelDisputeId?: string): Promise<Dispute> => {
    const id = channelDisputeId ?? `cd_${(disputeNumber += 1)}`;
    return disputes.execute({
      attempt,
      report: {
        channelDisputeId: id,
        channelOrderId: attempt.channelOrderId!,
        reference: attempt.id,
        status,
        amount: attempt.amount,
        currency: attempt.currency,
      },
    });
  };
  return { ...shop, channel: fake, channelSettles, releaseFunds, dispute };
}

test('1 IDR paid by a wallet to a THB merchant settles with fee and net 0, books nothing and keeps the ledger whole', async (t) => {
  const s = await setup('THB');
  const { intent } = await s.succeededWallet(1, 'IDR');
  t.true(await s.channelSettles(intent.id));
  const settled = await s.intentOf(intent.id);
  t.like(settled, { status: 'channel_settled', fee: { amount: 0, currency: 'THB' }, net: { amount: 0, currency: 'THB' }, fx: { locked: true } });
  t.false(await s.storage.ledger.hasPosted(`payment:${intent.id}`), 'an all-zero posting books nothing');
  // The release timer passes over it the same way.
  t.true(await s.releaseFunds(intent.id));
  t.truthy((await s.intentOf(intent.id)).releasedAt);
  t.deepEqual(await s.verify(), { ok: true, accounts: 0, breaks: [] });
});

test('a wallet payment whose conversion passes 2^53 − 1 at the lock is not settled unpriced: it stays succeeded and the item fails', async (t) => {
  const s = await setup('IDR');
  // USD → IDR multiplies by about 16 000 and 100/100: 2^53 − 1 US cents are far past it.
  const { intent } = await s.succeededWallet(MAX_AMOUNT, 'USD');
  const error = await t.throwsAsync(() => s.channelSettles(intent.id));
  t.like(error, { code: 'amount_not_representable' });
  t.like(await s.intentOf(intent.id), { status: 'succeeded', fx: { locked: false } });
  t.true((await s.verify()).ok);
});

test('a dispute opened before or after pricing, won, lost or left open, in every order, never lets lost money reach available or a payout', async (t) => {
  const outcomes = ['won', 'lost', 'open'] as const;
  const orders = fc.constantFrom(...disputeInterleavings());
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(orders, fc.constantFrom(...outcomes), async (steps, outcome) => {
      seen.add(`${steps.join('>')}:${outcome}`);
      const s = await setup('THB');
      const { intent, attempt } = await s.succeededWallet(100_000, 'USD'); // 1000 USD
      let channelDisputeId: string | undefined;
      for (const step of steps) {
        if (step === 'open') channelDisputeId = (await s.dispute(attempt, 'opened')).channelDisputeId;
        if (step === 'rule' && outcome !== 'open') await s.dispute(attempt, outcome, channelDisputeId);
        if (step === 'price') await s.channelSettles(intent.id);
        if (step === 'release') await s.releaseFunds(intent.id);
      }
      const priced = await s.intentOf(intent.id);
      const net = BigInt(priced.net?.amount ?? -1);
      if (net <= 0n) throw new Error('the payment was not priced');
      // The chargeback takes back the whole amount paid (net and fee, at the payment's rate); the merchant gives back its net.
      const gross = net + BigInt(priced.fee?.amount ?? 0);
      const report = await s.verify();
      if (!report.ok) throw new Error(JSON.stringify(report.breaks));
      const { pending, available, hold, losses } = await s.buckets();
      const expected =
        outcome === 'lost'
          ? { pending: 0n, available: -BigInt(DISPUTE_FEE), hold: 0n, losses: net - gross }
          : outcome === 'won'
            ? { pending: 0n, available: net, hold: 0n, losses: 0n }
            : // Still open: held, whether the payment was priced before the dispute opened or after.
              { pending: 0n, available: 0n, hold: net, losses: 0n };
      const actual = { pending, available, hold, losses };
      if (
        JSON.stringify(actual, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) !==
        JSON.stringify(expected, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
      ) {
        throw new Error(
          `${steps.join(' > ')} ${outcome}: ${JSON.stringify({ actual, expected }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
        );
      }
      // No payout ever covers a disputed payment (open or lost); a won one is settled in full.
      const settled = await s.storage.uow
        .run((transaction) =>
          openSettlement(transaction.bind(s.settlementDeps), { merchant: s.merchant, scope: s.scope, trigger: 'manual', releasedBefore: s.clock.now() }),
        )
        .catch((error: unknown) => {
          if (isCoreError(error)) return error.code;
          throw error;
        });
      if (outcome === 'won') {
        if (typeof settled === 'string' || settled.amount.amount !== Number(net)) throw new Error(`a won payment settles its net: ${JSON.stringify(settled)}`);
      } else if (settled !== 'nothing_to_settle') {
        throw new Error(`a disputed payment reached a settlement: ${JSON.stringify(settled)}`);
      }
    }),
    // 6 interleavings × 3 outcomes: every one is run (the examples), then random repeats.
    {
      numRuns: 30,
      examples: disputeInterleavings().flatMap((steps) => outcomes.map((outcome): [DisputeStep[], (typeof outcomes)[number]] => [steps, outcome])),
    },
  );
  t.is(seen.size, 18, [...seen].join(', '));
});
