import type {
  AttemptFailureCode,
  ChannelDisputeStatusName,
  ChannelOrderStatus,
  ChannelRefundStatus,
  RefundFailureCode,
  StatementLineKind,
} from '@payments/core';

/**
 * Every Stripe status, failure code and event type the stripe channel understands, and what each
 * is in our terms: one table per kind, in one file. A value not in its table is not guessed at:
 * `mapped` throws `UnmappedStripeValue`, which the adapter turns into a `channel_error` (the
 * reconciler's job item fails, loudly, until someone maps it).
 */

export class UnmappedStripeValue extends Error {
  constructor(
    readonly table: string,
    readonly value: string,
  ) {
    super(`Stripe answered a ${table} this channel does not map: '${value}'.`);
    this.name = 'UnmappedStripeValue';
  }
}

export function mapped<T>(table: string, entries: Readonly<Record<string, T>>, value: string | null | undefined): T {
  const key = value ?? 'null';
  if (!Object.prototype.hasOwnProperty.call(entries, key)) throw new UnmappedStripeValue(table, key);
  return entries[key];
}

/**
 * `PaymentIntent.status`. `requires_payment_method` is pending until a payment attempt failed
 * (then `last_payment_error` says why); `requires_capture` never happens (we never ask for a manual
 * capture) and is left out on purpose.
 */
export const PAYMENT_INTENT_STATUSES: Readonly<Record<string, ChannelOrderStatus['status'] | 'pending_unless_failed'>> = {
  requires_payment_method: 'pending_unless_failed',
  requires_confirmation: 'pending',
  requires_action: 'pending',
  processing: 'processing',
  succeeded: 'paid',
  canceled: 'failed',
};

/** `PaymentIntent.last_payment_error.code` (or `decline_code` when Stripe gives one) of a failed attempt. */
export const PAYMENT_ERROR_CODES: Readonly<Record<string, AttemptFailureCode>> = {
  payment_intent_payment_attempt_expired: 'expired',
  payment_intent_payment_attempt_failed: 'channel_error',
  payment_method_provider_decline: 'risk_blocked',
  payment_intent_authentication_failure: 'payer_cancelled',
  insufficient_funds: 'insufficient_funds',
  card_declined: 'risk_blocked',
  fraudulent: 'risk_blocked',
  generic_decline: 'risk_blocked',
  expired_card: 'risk_blocked',
};

/** `PaymentIntent.cancellation_reason` of a canceled intent. */
export const CANCELLATION_REASONS: Readonly<Record<string, AttemptFailureCode>> = {
  null: 'canceled',
  abandoned: 'expired',
  automatic: 'expired',
  requested_by_customer: 'payer_cancelled',
  duplicate: 'canceled',
  fraudulent: 'risk_blocked',
  failed_invoice: 'canceled',
  void_invoice: 'canceled',
};

/** `Refund.status`. */
export const REFUND_STATUSES: Readonly<Record<string, ChannelRefundStatus['status']>> = {
  pending: 'pending',
  requires_action: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
};

/** `Refund.failure_reason` of a failed refund. */
export const REFUND_FAILURE_REASONS: Readonly<Record<string, RefundFailureCode>> = {
  insufficient_funds: 'insufficient_channel_funds',
  declined: 'channel_declined',
  expired_or_canceled_card: 'channel_declined',
  lost_or_stolen_card: 'channel_declined',
  merchant_request: 'channel_declined',
  charge_for_pending_refund_disputed: 'channel_declined',
  unknown: 'channel_declined',
};

/** The `code` of a Stripe invalid-request error to a refund create: a decline, not an outage. */
export const REFUND_ERROR_CODES: Readonly<Record<string, RefundFailureCode>> = {
  balance_insufficient: 'insufficient_channel_funds',
  charge_already_refunded: 'channel_declined',
  charge_not_refundable: 'channel_declined',
  charge_disputed: 'channel_declined',
  amount_too_large: 'channel_declined',
  refund_disputed_payment: 'channel_declined',
  api_key_expired: 'expired_credential',
};

/** `Dispute.status`. Stripe's inquiries (`warning_*`) are disputes to us too. */
export const DISPUTE_STATUSES: Readonly<Record<string, ChannelDisputeStatusName>> = {
  warning_needs_response: 'opened',
  needs_response: 'opened',
  warning_under_review: 'under_review',
  under_review: 'under_review',
  warning_closed: 'won',
  won: 'won',
  prevented: 'won',
  lost: 'lost',
};

/** The Stripe event types the callback route takes (the webhook endpoint subscribes to exactly these). */
export const EVENT_KINDS: Readonly<
  Record<string, { kind: 'order'; reportedStatus: 'processing' | 'paid' | 'failed' } | { kind: 'dispute' } | { kind: 'refund' }>
> = {
  'payment_intent.processing': { kind: 'order', reportedStatus: 'processing' },
  'payment_intent.succeeded': { kind: 'order', reportedStatus: 'paid' },
  'payment_intent.payment_failed': { kind: 'order', reportedStatus: 'failed' },
  'payment_intent.canceled': { kind: 'order', reportedStatus: 'failed' },
  'charge.dispute.created': { kind: 'dispute' },
  'charge.dispute.updated': { kind: 'dispute' },
  'charge.dispute.closed': { kind: 'dispute' },
  'charge.dispute.funds_withdrawn': { kind: 'dispute' },
  'charge.dispute.funds_reinstated': { kind: 'dispute' },
  'refund.created': { kind: 'refund' },
  'refund.updated': { kind: 'refund' },
  'refund.failed': { kind: 'refund' },
};

/**
 * `BalanceTransaction.type` (with `reporting_category` for adjustments) to statement lines. A
 * payout moves the merchant's Stripe balance to their bank: not a movement of a payment, so no
 * line. `sign` turns Stripe's signed amount (+ into the balance) into the statement's.
 */
export type BalanceMovement =
  { readonly kind: Exclude<StatementLineKind, 'fee'>; readonly sign: 1 | -1; readonly source: 'charge' | 'refund' | 'dispute' } | { readonly kind: 'none' };

export const BALANCE_TRANSACTION_TYPES: Readonly<Record<string, BalanceMovement>> = {
  charge: { kind: 'payment', sign: 1, source: 'charge' },
  payment: { kind: 'payment', sign: 1, source: 'charge' },
  refund: { kind: 'refund', sign: -1, source: 'refund' },
  payment_refund: { kind: 'refund', sign: -1, source: 'refund' },
  refund_failure: { kind: 'refund', sign: -1, source: 'refund' },
  payment_failure_refund: { kind: 'refund', sign: -1, source: 'refund' },
  'adjustment:dispute': { kind: 'chargeback', sign: -1, source: 'dispute' },
  'adjustment:dispute_reversal': { kind: 'chargeback', sign: -1, source: 'dispute' },
  payout: { kind: 'none' },
  payout_cancel: { kind: 'none' },
  payout_failure: { kind: 'none' },
};
