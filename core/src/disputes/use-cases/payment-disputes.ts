import type { AccountScope, Money } from '../../common';
import type { PaymentDispute, PaymentDisputes } from '../../funds';
import { isRuled, type Dispute } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';

/** More disputes than any one payment gets; the list is read whole. */
const DISPUTES_PER_PAYMENT = 100;

function stateOf(dispute: Dispute): PaymentDispute['state'] {
  if (!isRuled(dispute)) return 'open';
  return dispute.status === 'lost' ? 'lost' : 'won';
}

/**
 * A payment's disputes as its money sees them (the `PaymentDisputes` port), from the dispute
 * repository. The repository is a field, not a closure's: bound to a transaction, so is this.
 */
class RepositoryPaymentDisputes implements PaymentDisputes {
  constructor(readonly repository: DisputeRepository) {}

  async ofPayment(scope: AccountScope, paymentIntentId: string): Promise<PaymentDispute[]> {
    const { data } = await this.repository.list(scope, { paymentIntentId }, { limit: DISPUTES_PER_PAYMENT });
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
  }

  async setHeld(scope: AccountScope, disputeId: string, held: Money): Promise<void> {
    const dispute = await this.repository.findById(scope, disputeId);
    if (dispute) await this.repository.update({ ...dispute, held });
  }
}

export const paymentDisputesOf = (repository: DisputeRepository): PaymentDisputes => new RepositoryPaymentDisputes(repository);
