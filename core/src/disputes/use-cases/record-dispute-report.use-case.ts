import type { PaymentFunds } from '../../funds';
import type { MerchantRepository } from '../../merchants';
import type { ChannelDisputeStatus, PaymentAttempt, PaymentIntent, PaymentIntentRepository } from '../../payments';
import type { AccountScope, Clock, Money, RandomSource, UnitOfWork } from '../../common';
import { newId, notFound } from '../../common';
import { publishEvent, type EventPublishDeps } from '../../webhooks';
import { DISPUTE_RESPONSE_WINDOW_MS, isRuled, type Dispute, type DisputeStatus } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';
import { disputeEvent, type DisputeEventType } from './dispute-events';

/** The ports a dispute change writes through, all inside one unit of work. */
export interface DisputeWriteDeps extends EventPublishDeps {
  readonly uow: UnitOfWork;
  readonly disputes: DisputeRepository;
  readonly intents: PaymentIntentRepository;
  readonly funds: PaymentFunds;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export interface DisputeRules {
  /** What a lost dispute costs, in minor units of the settlement currency (default 1500). */
  readonly disputeFeeMinor: number;
}
export type RecordDisputeReportDeps = DisputeWriteDeps & {
  readonly merchants: MerchantRepository;
  readonly rules: DisputeRules;
};

/**
 * Applies what a channel's dispute query says: the one place a dispute is opened or changes.
 * Callbacks and simulations end here with the query's answer, never a notice's claims. The
 * intent's row is locked for the whole unit of work, and written (its version) by every change, so
 * concurrent notices of one intent's disputes apply one after the other, on one database or on a
 * multi-writer cluster; the dispute row, its ledger posting and its event commit together, and a
 * replayed notice changes nothing and posts nothing (every posting is idempotent on its cause).
 *
 * Money (docs/disputes.md): the payment's money is moved by `PaymentFunds`, by its rules. Opening
 * holds everything the payment has left (nothing when it is not priced yet, another dispute holds
 * it, or a loss took it); the hold stays while any dispute of the payment is open; the last one won
 * gives it back; a loss takes everything the payment has left, charges the dispute fee (even when
 * nothing was held, since the ruling costs it either way) and books the chargeback.
 */
export class RecordDisputeReport {
  constructor(private readonly deps: RecordDisputeReportDeps) {}

  async execute(input: { attempt: PaymentAttempt; report: ChannelDisputeStatus }): Promise<Dispute> {
    const { attempt, report } = input;
    const scope: AccountScope = { merchantId: attempt.merchantId, mode: attempt.mode };
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    if (!merchant) throw notFound('merchant', scope.merchantId);
    const { deps } = this;

    return deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const locked = await self.deps.intents.findByIdForUpdate(scope, attempt.paymentIntentId);
      if (!locked) throw notFound('payment_intent', attempt.paymentIntentId);
      const now = self.deps.clock.now();
      const known = await self.deps.disputes.findByChannelDisputeId(attempt.channel, attempt.mode, report.channelDisputeId);
      // Locked too: evidence writes lock the dispute row alone, so this change cannot overwrite one.
      const stored = known && (await self.deps.disputes.findByIdForUpdate(scope, known.id));
      if (stored && isRuled(stored)) return stored;
      // Every dispute change writes the intent's row, before anything else: the hold and the
      // ruling depend on the intent's other disputes and on its release, and on a multi-writer
      // cluster only a write (not the lock) keeps two such changes of one intent from both
      // committing. The one that lost runs again and sees the other's dispute.
      const intent = await self.deps.intents.bumpVersion(locked);
      const dispute = stored ?? (await self.open(intent, attempt, report, now));

      if (report.status === 'won' || report.status === 'lost') return self.rule(dispute, intent, report.status, merchant.settlementCurrency, now);
      if (report.status === 'under_review' && dispute.status === 'opened') return self.change(dispute, 'under_review', 'dispute.updated', now);
      return dispute;
    });
  }

  /** Records a dispute the channel opened, its hold and `dispute.opened`. */
  private async open(intent: PaymentIntent, attempt: PaymentAttempt, report: ChannelDisputeStatus, now: Date): Promise<Dispute> {
    const { deps } = this;
    const id = newId(deps.random, 'dispute');
    const hold = await deps.funds.disputeOpened(intent, id, now);
    const dispute: Dispute = {
      id,
      merchantId: intent.merchantId,
      mode: intent.mode,
      paymentIntentId: intent.id,
      status: 'opened',
      amount: report.amount,
      currency: report.currency,
      ...(hold ? { held: hold.held, heldFrom: hold.from } : {}),
      ...(report.reason ? { reason: report.reason } : {}),
      evidence: {},
      channel: attempt.channel,
      channelDisputeId: report.channelDisputeId,
      dueBy: new Date(now.getTime() + DISPUTE_RESPONSE_WINDOW_MS),
      openedAt: now,
      created: now,
      updated: now,
    };
    await deps.disputes.insert(dispute);
    await publishEvent(deps, disputeEvent(dispute, 'dispute.opened', deps.random, now), now);
    return dispute;
  }

  /** Closes the dispute with the channel's ruling, moves its money and publishes `dispute.closed`. */
  private async rule(dispute: Dispute, intent: PaymentIntent, status: 'won' | 'lost', settlementCurrency: string, now: Date): Promise<Dispute> {
    const { deps } = this;
    const fee: Money | undefined =
      status === 'lost' ? { amount: deps.rules.disputeFeeMinor, currency: dispute.held?.currency ?? settlementCurrency } : undefined;
    await deps.funds.disputeRuled(intent, dispute, status, fee ?? { amount: 0, currency: settlementCurrency }, now);
    return this.change({ ...dispute, ...(fee ? { fee } : {}), closedAt: now }, status, 'dispute.closed', now);
  }

  private async change(dispute: Dispute, status: DisputeStatus, type: DisputeEventType, now: Date): Promise<Dispute> {
    const changed: Dispute = { ...dispute, status, updated: now };
    await this.deps.disputes.update(changed);
    await publishEvent(this.deps, disputeEvent(changed, type, this.deps.random, now), now);
    return changed;
  }
}
