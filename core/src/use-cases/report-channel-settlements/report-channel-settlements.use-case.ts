import { changeStatus, type StatusChangeDeps } from '../../domain/payment-intent-status-change';
import type { PaymentPricing } from '../../domain/payment-pricing';
import { bookPayment } from '../../domain/dispute-claims';
import type { DisputeRepository } from '../../ports/dispute.repository.port';
import type { Ledger } from '../../ports/ledger.port';
import type { MerchantRepository } from '../../ports/merchant.repository.port';
import type { PaymentAttemptRepository } from '../../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../../ports/payment-channel.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Asks the channel of each succeeded intent whether it settled the funds to the platform. A
 * settled intent becomes `channel_settled`, its rate locks if it was waiting for this point, and
 * its release timer starts: `available_at` = now + the merchant's settlement delay. A payment
 * not booked at success (its rate waited for this point) is booked now.
 */
export class ReportChannelSettlements {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly attempts: PaymentAttemptRepository,
    private readonly merchants: MerchantRepository,
    private readonly channels: PaymentChannelRegistry,
    private readonly deps: StatusChangeDeps,
    private readonly pricing: PaymentPricing,
    private readonly ledger: Ledger,
    private readonly disputes: DisputeRepository,
  ) {}

  async execute(input: { limit: number }): Promise<number> {
    const candidates = await this.deps.intents.findAwaitingChannelSettlement(input.limit);
    let settled = 0;
    // A channel that fails to answer is not asked again this tick: one slow channel must not
    // hold the whole scheduler for a timeout per intent.
    const unreachable = new Set<string>();
    for (const candidate of candidates) {
      const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
      const attempt = await this.attempts.findSucceeded(scope, candidate.id);
      const channel = attempt ? this.channels.find(attempt.channel) : undefined;
      if (!attempt?.channelOrderId || !channel || unreachable.has(attempt.channel)) continue;
      const report = await channel.queryOrder(attempt.mode, attempt.channelOrderId).catch(() => {
        unreachable.add(attempt.channel);
        return undefined;
      });
      if (!report?.settledAt) continue;
      const merchant = await this.merchants.findById(candidate.merchantId);
      if (!merchant) continue;
      const rate = await this.pricing.rateFor(candidate, merchant.settlementCurrency);
      // Without the rate it must lock at, the intent waits for a later tick rather than settle unpriced.
      if (this.pricing.needsRate(candidate, merchant.settlementCurrency) && rate === undefined) continue;
      const done = await this.uow.run(async () => {
        const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
        if (intent?.status !== 'succeeded') return false;
        const now = this.deps.clock.now();
        const priced = this.pricing.onChannelSettled(intent, attempt.paymentMethod, merchant.settlementCurrency, rate);
        const settledIntent = await changeStatus(this.deps, { ...priced, availableAt: new Date(now.getTime() + merchant.settlementDelayDays * DAY_MS) }, 'channel_settled');
        // A payment whose rate locked only now is booked now (with the claim of a dispute it lost
        // meanwhile); one booked at success posts nothing again.
        await bookPayment({ ledger: this.ledger, disputes: this.disputes }, settledIntent, now);
        return true;
      });
      if (done) settled += 1;
    }
    return settled;
  }
}
