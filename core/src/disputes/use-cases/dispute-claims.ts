import type { Ledger } from '../../ledger';
import { disputeClaimPosting, paymentPosting, pricedPayment } from '../../ledger';
import type { PaymentIntent } from '../../payments';
import { isRuled, type Dispute } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';

/** The ports that book a payment and the claims against it. */
export interface DisputeClaimDeps {
  readonly ledger: Ledger;
  readonly disputes: DisputeRepository;
}

/** More disputes than any one payment gets; the list is read whole. */
const DISPUTES_PER_INTENT = 100;

/**
 * True when an intent's disputes call for its net to be claimed outside a hold: one of them was
 * lost, none that held the net was lost (that ruling took the hold already), and none holds the
 * net now (its own ruling decides: a loss takes the hold, a win hands the question back here).
 */
export function unheldClaimDue(disputes: readonly Pick<Dispute, 'status' | 'held'>[]): boolean {
  if (!disputes.some((dispute) => dispute.status === 'lost')) return false;
  if (disputes.some((dispute) => dispute.status === 'lost' && dispute.held !== undefined)) return false;
  return !disputes.some((dispute) => !isRuled(dispute) && dispute.held !== undefined);
}

/**
 * Books the claim of a dispute lost without a hold against the intent's net, once both exist:
 * call it where the net appears (the payment is booked) and where a dispute is ruled, whichever
 * comes last finds both. Nothing happens before pricing, without such a loss, or a second time
 * (the posting's cause is the intent). Answers whether it posted. Call it inside the unit of work
 * of the change, with the intent as that change leaves it (`releasedAt` picks the bucket).
 */
export async function claimUnheldDisputeLoss(deps: DisputeClaimDeps, intent: PaymentIntent, now: Date): Promise<boolean> {
  const payment = pricedPayment(intent);
  if (!payment) return false;
  const disputes = (await deps.disputes.list(intent, { paymentIntentId: intent.id }, { limit: DISPUTES_PER_INTENT })).data;
  if (!unheldClaimDue(disputes)) return false;
  return deps.ledger.post(disputeClaimPosting(payment, intent.releasedAt ? 'available' : 'pending', now));
}

/**
 * Books a priced payment (posting nothing when it was booked before, or when it is not priced
 * yet) and then any claim a dispute lost before the pricing left waiting for its net.
 */
export async function bookPayment(deps: DisputeClaimDeps, intent: PaymentIntent, now: Date): Promise<void> {
  const payment = pricedPayment(intent);
  if (!payment) return;
  await deps.ledger.post(paymentPosting(payment, now));
  await claimUnheldDisputeLoss(deps, intent, now);
}
