import type { AccountScope, Money } from '../../common';
import { token } from '../../common';

/** A dispute of a payment as its money sees it: open (holding), won or lost. */
export interface PaymentDispute {
  readonly id: string;
  readonly state: 'open' | 'won' | 'lost';
  /** What the channel claims back, in the payment's currency, and the channel's own id for the dispute. */
  readonly amount: number;
  readonly currency: string;
  readonly channel: string;
  readonly channelDisputeId: string;
  /** What it shows as held now, in the settlement currency. */
  readonly held?: number;
}

/**
 * The disputes of a payment, every one of them: what decides where a booked payment's net, or a
 * failed refund's debit, goes. The disputes capability answers it from its repository.
 */
export interface PaymentDisputes {
  /** Every dispute of the payment, oldest first. */
  ofPayment(scope: AccountScope, paymentIntentId: string): Promise<PaymentDispute[]>;
  /** Records what a dispute holds now (the money moved into or out of the hold while it was open). */
  setHeld(scope: AccountScope, disputeId: string, held: Money): Promise<void>;
}
export const PaymentDisputes = token<PaymentDisputes>('PaymentDisputes');
