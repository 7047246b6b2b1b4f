import { newId, truncateToSecond, type DomainEvent, type RandomSource } from '@payments/core';

/** The endpoint's API version, so the relay and the baseline render the same body. */
export const API_VERSION = '2026-09-01';

/**
 * One `payment_intent.canceled` event of the merchant in test mode: the shape every real event
 * has (ids of fixed length), so every body the bench sends has the same size.
 */
export function benchEvent(random: RandomSource, merchantId: string, now: Date): DomainEvent {
  return {
    id: newId(random, 'event'),
    type: 'payment_intent.canceled',
    merchantId,
    mode: 'test',
    created: truncateToSecond(now),
    data: { id: newId(random, 'payment_intent'), object: 'payment_intent', status: 'canceled', merchant: merchantId, mode: 'test' },
  };
}
