import type { Mode } from '../../common';

/**
 * A notice that something changed: not the object itself. Receivers read the object through the
 * API. The same id and body reach webhooks and `GET /v1/events`.
 */
export interface EventData {
  readonly id: string;
  readonly object: string;
  readonly status: string;
  readonly merchant: string;
  readonly mode: Mode;
  /** Settlement and refund events also carry their amount. */
  readonly amount?: { readonly amount: number; readonly currency: string };
  /** Refund events name the payment intent refunded. */
  readonly payment_intent?: string;
}

export interface DomainEvent {
  readonly id: string;
  readonly type: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly created: Date;
  readonly data: EventData;
}

/** Event times are RFC 3339 UTC with whole seconds, so the creation time is cut to the second. */
export function truncateToSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
