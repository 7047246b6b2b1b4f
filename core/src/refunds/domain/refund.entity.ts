import type { Metadata, Mode, Money } from '../../common';
import { CoreError } from '../../common';

/** Every status a refund can have: it waits for the channel, then the channel's answer is final. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why the merchant gives the money back (optional, for its own records and the channel's). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Why a channel did not return the money. */
export const REFUND_FAILURE_CODES = ['insufficient_channel_funds', 'channel_declined', 'expired_credential'] as const;
export type RefundFailureCode = (typeof REFUND_FAILURE_CODES)[number];

/**
 * Money a merchant returns to the payer of a paid intent, through the channel that took it.
 * `amount` is in the intent's currency (what the payer gets back); `debit` is what it costs the
 * merchant in the settlement currency, booked when the refund is created, and `debitedFrom` the
 * bucket it left (available once the intent's funds were released, else pending). A failed refund
 * gives the debit back.
 */
export interface Refund {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly paymentIntentId: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: RefundStatus;
  readonly reason?: RefundReason;
  readonly failureCode?: RefundFailureCode;
  readonly metadata: Metadata;
  readonly debit: Money;
  readonly debitedFrom: 'pending' | 'available';
  /** The channel that took the payment, the paid order, and the channel's id for the refund once placed. */
  readonly channel: string;
  readonly channelOrderId: string;
  readonly channelRefundId?: string;
  readonly created: Date;
  readonly updated: Date;
  readonly succeededAt?: Date;
}

/** Whether the channel's answer is in: nothing changes a settled refund again. */
export function isFinal(refund: Pick<Refund, 'status'>): boolean {
  return refund.status !== 'pending';
}

/** Refunds that count against what an intent can still give back: all but the failed ones. */
export function countsAgainstIntent(refund: Pick<Refund, 'status'>): boolean {
  return refund.status !== 'failed';
}

/**
 * `value × numerator / denominator`, rounded half-even to an integer, exactly (BigInt: the product
 * of two amounts passes 2^53). All three are non-negative integers, the denominator positive.
 */
export function mulDivHalfEven(value: number, numerator: number, denominator: number): number {
  const product = BigInt(value) * BigInt(numerator);
  const divisor = BigInt(denominator);
  const quotient = product / divisor;
  const twiceRemainder = (product % divisor) * 2n;
  const roundUp = twiceRemainder > divisor || (twiceRemainder === divisor && quotient % 2n === 1n);
  return Number(roundUp ? quotient + 1n : quotient);
}

/**
 * What refunding `amount` more of an intent costs the merchant: its share of the net
 * (`amount × net / intent amount`, half-even), taken so the debits of an intent's refunds always
 * add up to the share of everything refunded so far. `refundedBefore` is the sum of the amounts
 * of the intent's refunds that did not fail, `debitedBefore` the sum of their debits. A whole
 * refund in several parts thus debits exactly the net, never a rounding unit more or less.
 */
export function refundDebit(intent: { readonly amount: number; readonly net: Money }, amount: number, refundedBefore: number, debitedBefore: number): Money {
  const shareAfter = mulDivHalfEven(refundedBefore + amount, intent.net.amount, intent.amount);
  return { amount: Math.max(0, shareAfter - debitedBefore), currency: intent.net.currency };
}

export function refundExceedsRemaining(remaining: number, currency: string): CoreError {
  return new CoreError(
    'refund_exceeds_remaining',
    'conflict',
    `The refund is more than what is left to refund of this payment: ${remaining} ${currency} minor units.`,
    { param: 'amount' },
  );
}
