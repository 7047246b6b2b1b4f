import type { DisputeRepository } from '../../disputes';
import { bookPayment, isRuled, type Dispute } from '../../disputes';
import type { ItemJob } from '../../jobs';
import type { PaymentIntent, PaymentIntentRepository } from '../../payments';
import type { RefundRepository } from '../../refunds';
import type { Clock, UnitOfWork } from '../../common';
import { MODES, type Mode } from '../../common';
import { disputeClaimCause, pricedPayment, releasePosting } from '../domain/ledger-postings';
import type { Ledger } from '../ports/ledger.port';
export interface ReleaseFundsDeps {
  readonly uow: UnitOfWork;
  readonly intents: PaymentIntentRepository;
  readonly disputes: DisputeRepository;
  readonly refunds: RefundRepository;
  readonly ledger: Ledger;
  readonly clock: Clock;
}

/**
 * The release timer: once `available_at` passes, a channel-settled intent's net moves from pending
 * to available, in the same transaction as the intent's `released_at`. The status stays
 * `channel_settled` and no event is sent. What refunds (and a dispute's hold) took out of pending
 * before the release has left it already, so only the rest of the net moves.
 */
export class ReleaseFunds implements ItemJob<PaymentIntent> {
  constructor(private readonly deps: ReleaseFundsDeps) {}

  readonly name = 'release-funds';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentIntent[]> {
    return this.deps.intents.findDueForRelease(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(intent: PaymentIntent): string {
    return intent.id;
  }

  /** Releases one intent whose timer ran out; false when another worker got there first. */
  handle(candidate: PaymentIntent): Promise<boolean> {
    return this.deps.uow.run(async () => {
      const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
      const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
      const now = this.deps.clock.now();
      if (intent?.status !== 'channel_settled' || intent.releasedAt !== undefined || !intent.availableAt || intent.availableAt > now) return false;
      await this.deps.intents.update({ ...intent, releasedAt: now, updated: now });
      const payment = pricedPayment(intent);
      if (!payment) return true;
      // Posts nothing when booked before, as it should be; books a waiting dispute claim from pending.
      await bookPayment({ ledger: this.deps.ledger, disputes: this.deps.disputes }, intent, now);
      // A dispute lost before pricing took the net out of pending: there is nothing to release.
      if (await this.deps.ledger.hasPosted(disputeClaimCause(intent.id))) return true;
      const dispute = await this.deps.disputes.findLatestForIntent(scope, intent.id);
      const held = heldFromPending(dispute) ? (dispute?.held?.amount ?? 0) : 0;
      const { debitedFromPending } = await this.deps.refunds.totalsForIntent(scope, intent.id);
      const rest = payment.net.amount - held - debitedFromPending;
      if (rest > 0) await this.deps.ledger.post(releasePosting(payment, now, { amount: rest, currency: payment.net.currency }));
      return true;
    });
  }
}

/**
 * True when a dispute took this payment's net out of pending and has not given it back: the
 * money sits in dispute_hold (open) or has left (lost), so there is nothing to release. A win
 * after this point returns the hold straight to available, since the intent is released by then.
 */
function heldFromPending(dispute: Dispute | undefined): boolean {
  if (!dispute?.held || dispute.heldFrom !== 'pending') return false;
  return !isRuled(dispute) || dispute.status === 'lost';
}
