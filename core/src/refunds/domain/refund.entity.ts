import type { RefundFailureCode } from '../../payments';
import type { Metadata, Mode, Money } from '../../common';
import { CoreError } from '../../common';

/** Every status a refund can have: it waits for the channel, then the channel's answer is final. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why the merchant gives the money back (optional, for its own records and the channel's). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

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
  /**
   * What the channel gives back for it in the settlement currency: the refunded amount at the
   * payment's rate, fee share included (the platform bears the fee share). Absent on refunds made
   * before it was recorded, which moved the channel's side by the debit alone.
   */
  readonly cleared?: Money;
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

export function refundExceedsRemaining(remaining: number, currency: string): CoreError {
  return new CoreError(
    'refund_exceeds_remaining',
    'conflict',
    `The refund is more than what is left to refund of this payment: ${remaining} ${currency} minor units.`,
    { param: 'amount' },
  );
}
