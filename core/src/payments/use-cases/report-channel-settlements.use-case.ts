import type { PaymentFunds } from '../../funds';
import type { PaymentPricing } from '../../fx';
import type { ItemJob, JobPass } from '../../jobs';
import type { MerchantRepository } from '../../merchants';
import type { UnitOfWork } from '../../common';
import { CoreError, MODES, type Mode } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { paidBy } from './record-channel-report.use-case';

const DAY_MS = 24 * 3600 * 1000;

/**
 * How long to wait before asking the channel again about an intent it has not settled: a quarter
 * of how long the intent has waited, from a second to an hour. A payment made a moment ago is
 * asked about every tick (the simulator settles on the next); one a channel settles days later,
 * about once an hour.
 */
export function settlementRecheckMs(waitedMs: number): number {
  return Math.min(Math.max(Math.floor(waitedMs / 4), 1000), 3_600_000);
}

function unpriceable(intent: PaymentIntent, settlementCurrency: string): CoreError {
  return new CoreError(
    'amount_not_representable',
    'internal',
    `Payment ${intent.id} of ${intent.amount} ${intent.currency} converts past 2^53 − 1 minor units of ${settlementCurrency} at the rate now; it waits until a rate prices it exactly.`,
  );
}
export type ReportChannelSettlementsDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly attempts: PaymentAttemptRepository;
  readonly merchants: MerchantRepository;
  readonly channels: PaymentChannelRegistry;
  readonly pricing: PaymentPricing;
  readonly funds: PaymentFunds;
};

/**
 * A background job (run by `RunItemJobs`, one intent at a time): asks the channel of each succeeded intent whether it settled the funds to the platform. A
 * settled intent becomes `channel_settled`, its rate locks if it was waiting for this point, and
 * its release timer starts: `available_at` = now + the merchant's settlement delay. A payment
 * not booked at success (its rate waited for this point) is booked now.
 */
export class ReportChannelSettlements implements ItemJob<PaymentIntent> {
  constructor(private readonly deps: ReportChannelSettlementsDeps) {}

  readonly name = 'report-channel-settlements';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentIntent[]> {
    return this.deps.intents.findAwaitingChannelSettlement(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(intent: PaymentIntent): string {
    return intent.id;
  }

  /** Asks the channel about one succeeded intent; true when it settled. */
  async handle(candidate: PaymentIntent, pass: JobPass): Promise<boolean> {
    const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
    const attempt = await this.deps.attempts.findSucceeded(scope, candidate.id);
    const channel = attempt ? this.deps.channels.find(attempt.channel) : undefined;
    // A channel that fails to answer is not asked again this pass: one slow channel must not
    // hold the lane for a timeout per intent.
    if (!attempt?.channelOrderId || !channel || pass.isDown(attempt.channel)) return false;
    const report = await channel.queryOrder(attempt.mode, attempt.channelOrderId).catch(() => {
      pass.markDown(attempt.channel);
      return undefined;
    });
    if (!report) return false;
    if (!report.settledAt) {
      // Not settled yet: asked again later, so unsettled intents never crowd out the rest.
      const now = this.deps.clock.now();
      await this.deps.intents.deferSettlementCheck(candidate.id, new Date(now.getTime() + settlementRecheckMs(now.getTime() - candidate.updated.getTime())));
      return false;
    }
    const merchant = await this.deps.merchants.findById(candidate.merchantId);
    if (!merchant) return false;
    const rate = await this.deps.pricing.rateFor(candidate, merchant.settlementCurrency);
    // Without the rate it must lock at, the intent waits for a later pass rather than settle unpriced.
    if (this.deps.pricing.needsRate(candidate, merchant.settlementCurrency) && rate === undefined) return false;
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, candidate.id);
      if (intent?.status !== 'succeeded') return false;
      const now = self.deps.clock.now();
      const priced = self.deps.pricing.onChannelSettled(intent, attempt.paymentMethod, merchant.settlementCurrency, rate);
      // Still unpriced with a rate in hand: the conversion would pass 2^53 − 1 (the rate moved that
      // far since creation). Settled unpriced, its money would never be booked: it stays succeeded
      // and fails this item, so operators see it, until a rate prices it exactly.
      if (self.deps.pricing.needsRate(priced, merchant.settlementCurrency)) throw unpriceable(intent, merchant.settlementCurrency);
      const settledIntent = await changeStatus(
        self.deps,
        { ...priced, availableAt: new Date(now.getTime() + merchant.settlementDelayDays * DAY_MS) },
        'channel_settled',
      );
      // A payment whose rate locked only now is booked now (with the claim of a dispute it lost
      // meanwhile); one booked at success posts nothing again.
      await self.deps.funds.book(settledIntent, now, paidBy(attempt));
      return true;
    });
  }
}
