import type { Ledger } from '../../ledger';
import { disputeLostPosting, disputeOpenedPosting, disputeWonPosting, type DisputeHold } from '../../ledger';
import type { MerchantRepository } from '../../merchants';
import type { ChannelDisputeStatus, PaymentAttempt, PaymentIntent, PaymentIntentRepository } from '../../payments';
import type { RefundRepository } from '../../refunds';
import type { AccountScope, Clock, Money, RandomSource, UnitOfWork } from '../../common';
import { newId, notFound } from '../../common';
import { publishEvent, type EventPublishDeps } from '../../webhooks';
import { DISPUTE_RESPONSE_WINDOW_MS, isRuled, type Dispute, type DisputeStatus } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';
import { claimUnheldDisputeLoss } from './dispute-claims';
import { disputeEvent, type DisputeEventType } from './dispute-events';

/** The ports a dispute change writes through, all inside one unit of work. */
export interface DisputeWriteDeps extends EventPublishDeps {
  readonly uow: UnitOfWork;
  readonly disputes: DisputeRepository;
  readonly intents: PaymentIntentRepository;
  readonly ledger: Ledger;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export interface DisputeRules {
  /** What a lost dispute costs, in minor units of the settlement currency (default 1500). */
  readonly disputeFeeMinor: number;
}
export type RecordDisputeReportDeps = DisputeWriteDeps & {
  readonly merchants: MerchantRepository;
  readonly refunds: RefundRepository;
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
 * Money (docs/disputes.md): opening holds the intent's `net` (settlement currency) less what its
 * refunds debited already, taken from
 * available once the release timer fired, else from pending. An intent whose rate is not locked
 * yet has no `net`: its dispute holds nothing and opening posts nothing. Won returns the hold to
 * available once the intent is released, else to pending. Lost gives the hold to the channel and
 * debits the dispute fee from available (which may go negative); the fee is charged even without
 * a hold, since the ruling costs it either way. A loss without a hold still takes the net: its
 * claim is booked against the net when both exist (`claimUnheldDisputeLoss`), here when the net
 * is already priced, else when the payment is booked at channel settlement.
 */
export class RecordDisputeReport {
  constructor(private readonly deps: RecordDisputeReportDeps) {}

  async execute(input: { attempt: PaymentAttempt; report: ChannelDisputeStatus }): Promise<Dispute> {
    const { attempt, report } = input;
    const scope: AccountScope = { merchantId: attempt.merchantId, mode: attempt.mode };
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    if (!merchant) throw notFound('merchant', scope.merchantId);
    const { deps } = this;

    return deps.uow.run(async () => {
      const locked = await deps.intents.findByIdForUpdate(scope, attempt.paymentIntentId);
      if (!locked) throw notFound('payment_intent', attempt.paymentIntentId);
      const now = deps.clock.now();
      const known = await deps.disputes.findByChannelDisputeId(attempt.channel, attempt.mode, report.channelDisputeId);
      // Locked too: evidence writes lock the dispute row alone, so this change cannot overwrite one.
      const stored = known && (await deps.disputes.findByIdForUpdate(scope, known.id));
      if (stored && isRuled(stored)) return stored;
      // Every dispute change writes the intent's row, before anything else: the hold and the
      // ruling depend on the intent's other disputes and on its release, and on a multi-writer
      // cluster only a write (not the lock) keeps two such changes of one intent from both
      // committing. The one that lost runs again and sees the other's dispute.
      const intent = await deps.intents.bumpVersion(locked);
      const dispute = stored ?? (await this.open(intent, attempt, report, now));

      if (report.status === 'won' || report.status === 'lost') {
        const ruled = await this.rule(dispute, intent, report.status, merchant.settlementCurrency, now);
        // A loss that held nothing (opened before the payment was priced) still takes the net back,
        // now if the net exists, else when it is booked; a win may leave such a loss to book.
        await claimUnheldDisputeLoss(deps, intent, now);
        return ruled;
      }
      if (report.status === 'under_review' && dispute.status === 'opened') return this.change(dispute, 'under_review', 'dispute.updated', now);
      return dispute;
    });
  }

  /** Records a dispute the channel opened, its hold and `dispute.opened`. */
  private async open(intent: PaymentIntent, attempt: PaymentAttempt, report: ChannelDisputeStatus, now: Date): Promise<Dispute> {
    const { deps } = this;
    // One hold per intent: should a channel open a second dispute while one is open, the net is
    // already frozen once and must not be frozen twice; after a lost dispute it is gone for good.
    const latest = await deps.disputes.findLatestForIntent(intent, intent.id);
    const alreadyHeld = latest !== undefined && !isRuled(latest) && latest.held !== undefined;
    const alreadyLost = (await deps.disputes.list(intent, { paymentIntentId: intent.id, status: 'lost' }, { limit: 1 })).data.length > 0;
    const held = alreadyHeld || alreadyLost ? undefined : await this.unrefundedNet(intent);
    const heldFrom = intent.releasedAt ? 'available' : 'pending';
    const dispute: Dispute = {
      id: newId(deps.random, 'dispute'),
      merchantId: intent.merchantId,
      mode: intent.mode,
      paymentIntentId: intent.id,
      status: 'opened',
      amount: report.amount,
      currency: report.currency,
      ...(held ? { held: { amount: held.amount, currency: held.currency }, heldFrom } : {}),
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
    if (dispute.held) await deps.ledger.post(disputeOpenedPosting(holdOf(dispute, dispute.held), heldFrom, now));
    await publishEvent(deps, disputeEvent(dispute, 'dispute.opened', deps.random, now), now);
    return dispute;
  }

  /**
   * What of the intent's net its refunds have not given back yet (refunds that did not fail): a
   * dispute holds that, since the rest has already left the merchant's balance. A fully refunded
   * payment's dispute holds 0, which books nothing, and is still a hold: its loss takes no net
   * (`claimUnheldDisputeLoss` is for payments not priced when their dispute opened). Undefined
   * when the payment is not priced.
   */
  private async unrefundedNet(intent: PaymentIntent): Promise<Money | undefined> {
    if (!intent.net) return undefined;
    const { debited } = await this.deps.refunds.totalsForIntent(intent, intent.id);
    return { amount: Math.max(0, intent.net.amount - debited), currency: intent.net.currency };
  }

  /** Closes the dispute with the channel's ruling, moves its money and publishes `dispute.closed`. */
  private async rule(dispute: Dispute, intent: PaymentIntent, status: 'won' | 'lost', settlementCurrency: string, now: Date): Promise<Dispute> {
    const { deps } = this;
    let fee: Money | undefined;
    if (status === 'won') {
      if (dispute.held) await deps.ledger.post(disputeWonPosting(holdOf(dispute, dispute.held), intent.releasedAt ? 'available' : 'pending', now));
    } else {
      fee = { amount: this.deps.rules.disputeFeeMinor, currency: dispute.held?.currency ?? settlementCurrency };
      // Without a hold the claim's legs are zero and drop out: only the fee is booked.
      const held = dispute.held ?? { amount: 0, currency: fee.currency };
      if (held.amount > 0 || fee.amount > 0) await deps.ledger.post(disputeLostPosting(holdOf(dispute, held), fee, now));
    }
    return this.change({ ...dispute, ...(fee ? { fee } : {}), closedAt: now }, status, 'dispute.closed', now);
  }

  private async change(dispute: Dispute, status: DisputeStatus, type: DisputeEventType, now: Date): Promise<Dispute> {
    const changed: Dispute = { ...dispute, status, updated: now };
    await this.deps.disputes.update(changed);
    await publishEvent(this.deps, disputeEvent(changed, type, this.deps.random, now), now);
    return changed;
  }
}

function holdOf(dispute: Dispute, held: Money): DisputeHold {
  return { disputeId: dispute.id, scope: { merchantId: dispute.merchantId, mode: dispute.mode }, held };
}
