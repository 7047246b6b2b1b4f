import type { Metadata, Mode, Money } from '../../common';
import { CoreError } from '../../common';
import type { NextActionType } from '../../catalog';
import type { FxLock } from '../../fx';

/** Every status a payment intent can have, in the order of a payment's life; the type is this list's. */
export const PAYMENT_INTENT_STATUSES = ['created', 'requires_payment', 'processing', 'succeeded', 'channel_settled', 'failed', 'expired', 'canceled'] as const;

export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export interface NextAction {
  readonly type: NextActionType;
  readonly url?: string;
  readonly qrData?: string;
}

export interface PaymentIntent {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly amount: number;
  readonly currency: string;
  readonly merchantOrderId: string;
  readonly status: PaymentIntentStatus;
  readonly paymentMethod?: string;
  readonly channelPreference?: string;
  readonly description?: string;
  readonly customer?: string;
  readonly returnUrl?: string;
  readonly metadata: Metadata;
  readonly fee?: Money;
  readonly net?: Money;
  /** What the intent's refunds that did not fail add up to, in its currency (0 or absent: none). */
  readonly amountRefunded?: number;
  readonly fx?: FxLock;
  readonly nextAction?: NextAction;
  readonly availableAt?: Date;
  /** Set when the release timer fired: the funds moved from pending to available. */
  readonly releasedAt?: Date;
  /** The settlement that covers this payment, once one does (a payment is settled once). */
  readonly settlementId?: string;
  readonly expiresAt?: Date;
  readonly created: Date;
  readonly updated: Date;
  /** Optimistic-concurrency counter: every stored change must name the version it read. */
  readonly version: number;
}

/**
 * The intent state machine. Money a channel confirms is never dropped, so a confirmed success is
 * allowed from every status but the two that already hold it.
 */
const TRANSITIONS: Readonly<Record<PaymentIntentStatus, readonly PaymentIntentStatus[]>> = {
  created: ['requires_payment', 'failed', 'canceled', 'expired', 'succeeded'],
  requires_payment: ['processing', 'succeeded', 'failed', 'canceled', 'expired'],
  processing: ['succeeded', 'failed'],
  failed: ['requires_payment', 'expired', 'succeeded'],
  succeeded: ['channel_settled'],
  channel_settled: [],
  expired: ['succeeded'],
  canceled: ['succeeded'],
};

/** Statuses a merchant may still cancel from. */
export const CANCELABLE: readonly PaymentIntentStatus[] = ['created', 'requires_payment'];

/** Statuses the expiry timer acts on. */
export const EXPIRABLE: readonly PaymentIntentStatus[] = ['created', 'requires_payment', 'failed'];

export function canTransition(from: PaymentIntentStatus, to: PaymentIntentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Moves the intent to `to`. Throws 409 `invalid_state_transition` when the state machine does
 * not allow it; the caller writes the returned intent together with its event.
 */
export function transition(intent: PaymentIntent, to: PaymentIntentStatus, now: Date): PaymentIntent {
  if (!canTransition(intent.status, to)) {
    throw new CoreError('invalid_state_transition', 'conflict', `A payment intent in status '${intent.status}' cannot become '${to}'.`);
  }
  return { ...intent, status: to, updated: now };
}

/** Every status change from requires_payment onward is announced; creation (`created`) is not. */
export function statusEmitsEvent(status: PaymentIntentStatus): boolean {
  return status !== 'created';
}

/** Whether the expiry timer still runs for this intent at `now`. */
export function isDueForExpiry(intent: PaymentIntent, now: Date): boolean {
  return EXPIRABLE.includes(intent.status) && intent.expiresAt !== undefined && intent.expiresAt <= now;
}
