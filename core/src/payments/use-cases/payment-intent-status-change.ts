import type { Clock, RandomSource } from '../../common';
import { domainEvent, publishEvent, type DomainEvent, type EventPublishDeps } from '../../webhooks';
import { statusEmitsEvent, transition, type PaymentIntent, type PaymentIntentStatus } from '../domain/payment-intent.entity';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export function paymentIntentEvent(intent: PaymentIntent, random: RandomSource, now: Date): DomainEvent {
  return domainEvent(`payment_intent.${intent.status}`, 'payment_intent', intent, random, now);
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
