import type { Mode } from '../../common';
import type { NextAction } from './payment-intent.entity';

export type PaymentAttemptStatus = 'pending' | 'succeeded' | 'failed';

/**
 * Why an attempt failed. `canceled`: the merchant canceled the intent while the payer still held
 * the credential.
 */
export type AttemptFailureCode = 'insufficient_funds' | 'payer_cancelled' | 'risk_blocked' | 'expired' | 'channel_error' | 'canceled';

/** The failure codes a payer's channel can report (the rest are the platform's own). */
export const PAYER_FAILURE_CODES = ['insufficient_funds', 'payer_cancelled', 'risk_blocked'] as const;

/** One try at a channel for an intent. The channel's own answers are never stored here. */
export interface PaymentAttempt {
  readonly id: string;
  readonly paymentIntentId: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly status: PaymentAttemptStatus;
  readonly amount: number;
  readonly currency: string;
  readonly paymentMethod: string;
  readonly channel: string;
  /** The channel's id for the order; absent until the channel accepted it. */
  readonly channelOrderId?: string;
  readonly nextAction?: NextAction;
  readonly failureCode?: AttemptFailureCode;
  readonly failureMessage?: string;
  readonly succeededAt?: Date;
  /**
   * Set on an attempt that succeeded after another attempt had already paid its intent: the id of
   * that attempt. The payer paid twice; this attempt's amount is owed back to the payer (the
   * ledger's `duplicate_payment:<attempt>`), and the intent stays paid by the other attempt.
   */
  readonly duplicateOf?: string;
  readonly created: Date;
  readonly updated: Date;
  /** When the reconciler should next ask the channel about a pending attempt. */
  readonly nextCheckAt?: Date;
  readonly version: number;
}

/** A sentence for `failure_message`: for a person, not to branch on. */
export function describeFailure(code: string | undefined): string {
  switch (code) {
    case 'insufficient_funds':
      return "The payer's account did not hold enough funds.";
    case 'payer_cancelled':
      return 'The payer cancelled the payment.';
    case 'risk_blocked':
      return "The channel's risk checks blocked the payment.";
    case 'expired':
      return 'The payment credential expired before the payer paid.';
    case 'canceled':
      return 'The merchant canceled the payment intent.';
    default:
      return 'The channel could not take the payment.';
  }
}
