import { newId, type Mode, type RandomSource } from '../../common';

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
  /**
   * The payment intent the event concerns: the intent's own events and those of its refunds and
   * disputes. Not part of the body (a dispute event never named its intent); it is what lists an
   * intent's events.
   */
  readonly paymentIntentId?: string;
}

/** What an event is about: an object of one merchant and mode, in some status. */
export interface EventSubject {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly status: string;
  /** The payment intent a refund or a dispute is of. */
  readonly paymentIntentId?: string;
}

/**
 * The event `type` about `subject`, an `object` ('payment_intent', 'dispute' …): a fresh id, the
 * time cut to the second, and as data `{id, object, status, merchant, mode}` then `more` (in that
 * order: it is the order of the JSON receivers get). An intent's event concerns the intent, a
 * refund's or a dispute's the intent they are of.
 */
export function domainEvent(
  type: string,
  object: string,
  subject: EventSubject,
  random: RandomSource,
  now: Date,
  more: Pick<EventData, 'amount' | 'payment_intent'> = {},
): DomainEvent {
  const { id, merchantId, mode, status } = subject;
  const paymentIntentId = object === 'payment_intent' ? id : subject.paymentIntentId;
  return {
    id: newId(random, 'event'),
    type,
    merchantId,
    mode,
    created: truncateToSecond(now),
    data: { id, object, status, merchant: merchantId, mode, ...more },
    ...(paymentIntentId === undefined ? {} : { paymentIntentId }),
  };
}

/** Event times are RFC 3339 UTC with whole seconds, so the creation time is cut to the second. */
export function truncateToSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
