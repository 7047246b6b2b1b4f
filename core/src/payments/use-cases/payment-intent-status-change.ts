import type { Clock, RandomSource } from '../../common';
import { newId } from '../../common';
import { publishEvent, truncateToSecond, type DomainEvent, type EventPublishDeps } from '../../webhooks';
import { statusEmitsEvent, transition, type PaymentIntent, type PaymentIntentStatus } from '../domain/payment-intent.entity';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export function paymentIntentEvent(intent: PaymentIntent, random: RandomSource, now: Date): DomainEvent {
  return {
    id: newId(random, 'event'),
    type: `payment_intent.${intent.status}`,
    merchantId: intent.merchantId,
    mode: intent.mode,
    created: truncateToSecond(now),
    data: { id: intent.id, object: 'payment_intent', status: intent.status, merchant: intent.merchantId, mode: intent.mode },
  };
}

/** The ports a status change writes through. */
export interface StatusChangeDeps extends EventPublishDeps {
  readonly intents: PaymentIntentRepository;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/**
 * Moves an intent to `to`, stores it and publishes its `payment_intent.<status>` event (outbox and webhook deliveries). Call it
 * inside a unit of work, on an intent read with `findByIdForUpdate`, so the change and its event
 * commit together and no concurrent change slips in between.
 */
export async function changeStatus(deps: StatusChangeDeps, intent: PaymentIntent, to: PaymentIntentStatus): Promise<PaymentIntent> {
  const now = deps.clock.now();
  const stored = await deps.intents.update(transition(intent, to, now));
  if (statusEmitsEvent(to)) await publishEvent(deps, paymentIntentEvent(stored, deps.random, now), now);
  return stored;
}
