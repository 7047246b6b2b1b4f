import type { RandomSource } from '../../common';
import { domainEvent, type DomainEvent } from '../../webhooks';
import type { Refund } from '../domain/refund.entity';

/** The three refund event types. */
export type RefundEventType = 'refund.created' | 'refund.succeeded' | 'refund.failed';

/** The notice of a refund change: `{id, object, status, merchant, mode, payment_intent, amount: {amount, currency}}`. */
export function refundEvent(refund: Refund, type: RefundEventType, random: RandomSource, now: Date): DomainEvent {
  return domainEvent(type, 'refund', refund, random, now, {
    payment_intent: refund.paymentIntentId,
    amount: { amount: refund.amount, currency: refund.currency },
  });
}
