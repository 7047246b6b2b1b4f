import type { Money } from '../../common';
import { mulDivHalfEven } from '../../common';

/**
 * The figures of a payment that its money rules need (docs/ledger.md, "A payment's money"). `net`
 * and `fee` exist once the payment is priced (in the settlement currency); `amount` is what the
 * payer paid, in `currency`.
 */
export interface PaymentFigures {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: 'test' | 'live';
  readonly amount: number;
  readonly currency: string;
  readonly net?: Money;
  readonly fee?: Money;
  /** Set once the release timer fired: the payment's money then waits in available, not pending. */
  readonly releasedAt?: Date;
}

/** A payment once priced. */
export type PricedFigures = PaymentFigures & { readonly net: Money; readonly fee: Money };

export function isPriced(payment: PaymentFigures): payment is PricedFigures {
  return payment.net !== undefined && payment.fee !== undefined;
}

/** What the payer paid, in the settlement currency: net plus fee. */
export function grossOf(payment: PricedFigures): number {
  return payment.net.amount + payment.fee.amount;
}

/** The bucket the payment's own money sits in outside a dispute: available once released, else pending. */
export function homeBucket(payment: Pick<PaymentFigures, 'releasedAt'>): 'available' | 'pending' {
  return payment.releasedAt ? 'available' : 'pending';
}

/** What a payment's refunds that did not fail add up to so far. */
export interface RefundedSoFar {
  /** In the payment's currency. */
  readonly refunded: number;
  /** The merchant's debits, in the settlement currency. */
  readonly debited: number;
  /** What the channel gave back, in the settlement currency. */
  readonly cleared: number;
}

/** What one more refund of `amount` moves, in the settlement currency. */
export interface RefundShares {
  /** The merchant's share of the net: what it is debited. */
  readonly debit: Money;
  /** The whole refunded amount at the payment's rate: what the channel gives back. */
  readonly cleared: Money;
}

/**
 * The shares of one more refund: `amount × net / amount paid` for the merchant and `amount ×
 * gross / amount paid` for the channel, each half-even and taken cumulatively, so the refunds of a
 * payment always add up to the share of everything refunded so far (a whole refund in parts
 * debits exactly the net, and clears exactly the gross). The difference is the fee share, which
 * the platform bears.
 */
export function refundShares(payment: PricedFigures, amount: number, before: RefundedSoFar): RefundShares {
  const total = before.refunded + amount;
  const currency = payment.net.currency;
  const debit = mulDivHalfEven(total, payment.net.amount, payment.amount) - before.debited;
  const cleared = mulDivHalfEven(total, grossOf(payment), payment.amount) - before.cleared;
  return { debit: { amount: Math.max(0, debit), currency }, cleared: { amount: Math.max(0, cleared), currency } };
}

/** What a chargeback of `disputed` (in the payment's currency) takes from the platform, in the settlement currency. */
export function chargebackOf(payment: PricedFigures, disputed: number): Money {
  return { amount: mulDivHalfEven(disputed, grossOf(payment), payment.amount), currency: payment.net.currency };
}
