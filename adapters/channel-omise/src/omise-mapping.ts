import type { AttemptFailureCode, ChannelDisputeStatusName, ChannelOrderStatus, RefundFailureCode, StatementLineKind } from '@payments/core';

/**
 * Every Omise status, failure code, error code, event key and transaction key the omise channel
 * understands, and what each is in our terms: one table per kind, in one file. A value not in its
 * table is not guessed at: `mapped` throws `UnmappedOmiseValue`, which the adapter turns into a
 * `channel_error` (the reconciler's job item fails, loudly, until someone maps it).
 */

export class UnmappedOmiseValue extends Error {
  constructor(
    readonly table: string,
    readonly value: string,
  ) {
    super(`Omise answered a ${table} this channel does not map: '${value}'.`);
    this.name = 'UnmappedOmiseValue';
  }
}

export function mapped<T>(table: string, entries: Readonly<Record<string, T>>, value: string | null | undefined): T {
  const key = value ?? 'null';
  if (!Object.prototype.hasOwnProperty.call(entries, key)) throw new UnmappedOmiseValue(table, key);
  return entries[key];
}

/**
 * `Charge.status` (the SDK's `ChargeStatus`). `expired` and `reversed` are failures whose code is
 * fixed; a `failed` charge's code comes from `failure_code`.
 */
export const CHARGE_STATUSES: Readonly<Record<string, ChannelOrderStatus['status'] | 'failed_by_code' | 'expired' | 'reversed'>> = {
  pending: 'pending',
  successful: 'paid',
  failed: 'failed_by_code',
  expired: 'expired',
  reversed: 'reversed',
};

/** `Charge.failure_code` of a failed PromptPay charge. */
export const CHARGE_FAILURE_CODES: Readonly<Record<string, AttemptFailureCode>> = {
  payment_expired: 'expired',
  payment_rejected: 'risk_blocked',
  failed_fraud_check: 'risk_blocked',
  insufficient_fund: 'insufficient_funds',
  insufficient_balance: 'insufficient_funds',
  payment_cancelled: 'payer_cancelled',
  failed_processing: 'channel_error',
  timeout: 'channel_error',
};

/**
 * The `code` of Omise's error object (`{ object: 'error', code, message }`) to a charge create: a
 * decline the payer can act on. Any other code is `channel_error`.
 */
export const CHARGE_ERROR_CODES: Readonly<Record<string, AttemptFailureCode>> = {
  failed_fraud_check: 'risk_blocked',
  insufficient_fund: 'insufficient_funds',
};

/** The `code` of Omise's error to a refund create: a decline, not an outage. */
export const REFUND_ERROR_CODES: Readonly<Record<string, RefundFailureCode>> = {
  failed_refund: 'channel_declined',
  invalid_amount: 'channel_declined',
  insufficient_balance: 'insufficient_channel_funds',
  insufficient_fund: 'insufficient_channel_funds',
  authentication_failure: 'expired_credential',
};

/**
 * `Dispute.status`. Omise's `closed` says only that the case ended, not who won it, so it is left
 * out on purpose: a closed dispute fails the query loudly until someone reads the case.
 */
export const DISPUTE_STATUSES: Readonly<Record<string, ChannelDisputeStatusName>> = {
  open: 'opened',
  pending: 'under_review',
  won: 'won',
  lost: 'lost',
};

/**
 * The Omise event keys the callback route takes. Omise's deliveries are unsigned: an order event's
 * `reportedStatus` is what the body claims of the charge (`by_status`: read from the body's
 * `status` through `CLAIMED_CHARGE_STATUSES`), which the fetched charge must not contradict. Any
 * other key (`customer.*`, `transfer.*`, …) is refused as `invalid_callback`, as the stripe
 * channel refuses an event type it does not map.
 */
export type OmiseEventKind =
  | { readonly kind: 'order'; readonly reportedStatus: 'processing' | 'paid' | 'failed' | 'by_status' }
  | { readonly kind: 'dispute' }
  | { readonly kind: 'refund' };

export const EVENT_KINDS: Readonly<Record<string, OmiseEventKind>> = {
  'charge.create': { kind: 'order', reportedStatus: 'by_status' },
  'charge.complete': { kind: 'order', reportedStatus: 'by_status' },
  'charge.update': { kind: 'order', reportedStatus: 'by_status' },
  'charge.expire': { kind: 'order', reportedStatus: 'failed' },
  'charge.reverse': { kind: 'order', reportedStatus: 'failed' },
  'refund.create': { kind: 'refund' },
  'dispute.create': { kind: 'dispute' },
  'dispute.update': { kind: 'dispute' },
  'dispute.accept': { kind: 'dispute' },
  'dispute.close': { kind: 'dispute' },
};

/** What a `charge.complete`/`charge.update` body's `status` claims (`by_status` above). */
export const CLAIMED_CHARGE_STATUSES: Readonly<Record<string, 'processing' | 'paid' | 'failed'>> = {
  successful: 'paid',
  failed: 'failed',
  expired: 'failed',
  reversed: 'failed',
  pending: 'processing',
};

/**
 * `Transaction.key` (with its `direction`) to statement lines. A transfer moves the merchant's
 * Omise balance to their bank: not a movement of a payment, so no line. `sign` turns Omise's
 * direction into the statement's sign (+ collected for a payment, + paid out for a refund or a
 * chargeback). Omise takes the disputed amount when a dispute opens and gives it back when the
 * merchant wins: the give-back is a negative chargeback line.
 */
export type TransactionMovement =
  { readonly kind: Exclude<StatementLineKind, 'fee'>; readonly sign: 1 | -1; readonly source: 'charge' | 'refund' | 'dispute' } | { readonly kind: 'none' };

export const TRANSACTION_KEYS: Readonly<Record<string, TransactionMovement>> = {
  'charge.capture:credit': { kind: 'payment', sign: 1, source: 'charge' },
  'refund.create:debit': { kind: 'refund', sign: 1, source: 'refund' },
  'dispute.start:debit': { kind: 'chargeback', sign: 1, source: 'dispute' },
  'dispute.won:credit': { kind: 'chargeback', sign: -1, source: 'dispute' },
  'transfer.send:debit': { kind: 'none' },
  'transfer.fail:credit': { kind: 'none' },
  'transfer.fee:debit': { kind: 'none' },
};
