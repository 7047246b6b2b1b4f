import type { PaymentDispute, PaymentDisputes } from '../../funds';
import { isRuled, type Dispute } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';

/** More disputes than any one payment gets; the list is read whole. */
const DISPUTES_PER_PAYMENT = 100;

function stateOf(dispute: Dispute): PaymentDispute['state'] {
  if (!isRuled(dispute)) return 'open';
  return dispute.status === 'lost' ? 'lost' : 'won';
}

/** A payment's disputes as its money sees them (the `PaymentDisputes` port), from the dispute repository. */
export function paymentDisputesOf(repository: DisputeRepository): PaymentDisputes {
  return {
    async ofPayment(scope, paymentIntentId) {
      const { data } = await repository.list(scope, { paymentIntentId }, { limit: DISPUTES_PER_PAYMENT });
      // The list is newest first; the money rules read them in the order they opened.
      return [...data].reverse().map((dispute) => ({
        id: dispute.id,
        state: stateOf(dispute),
        amount: dispute.amount,
        currency: dispute.currency,
        channel: dispute.channel,
        channelDisputeId: dispute.channelDisputeId,
        ...(dispute.held ? { held: dispute.held.amount } : {}),
      }));
    },
    async setHeld(scope, disputeId, held) {
      const dispute = await repository.findById(scope, disputeId);
      if (dispute) await repository.update({ ...dispute, held });
    },
  };
}
