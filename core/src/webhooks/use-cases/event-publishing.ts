import type { RandomSource } from '../../common';
import { newId } from '../../common';
import type { DomainEvent } from '../domain/event.entity';
import { endpointReceives, type WebhookDelivery } from '../domain/webhook-delivery.entity';
import type { EventOutbox } from '../ports/event-outbox.port';
import type { WebhookDeliveryRepository } from '../ports/webhook-delivery.repository.port';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

/** The ports publishing an event writes through. */
export interface EventPublishDeps {
  readonly events: EventOutbox;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly random: RandomSource;
}

/**
 * Appends `event` to the outbox and queues one delivery, due at `now`, per enabled endpoint of
 * its merchant and mode that subscribes to its type. Call it inside the unit of work of the
 * change the event announces: the change, the event and its deliveries commit or roll back
 * together. Every event of the service is written through here.
 */
export async function publishEvent(deps: EventPublishDeps, event: DomainEvent, now: Date): Promise<WebhookDelivery[]> {
  await deps.events.append(event);
  const endpoints = await deps.webhookEndpoints.list({ merchantId: event.merchantId, mode: event.mode });
  const deliveries: WebhookDelivery[] = [];
  for (const endpoint of endpoints) {
    if (!endpointReceives(endpoint, event)) continue;
    const delivery: WebhookDelivery = {
      id: newId(deps.random, 'webhook_delivery'),
      merchantId: event.merchantId,
      mode: event.mode,
      eventId: event.id,
      endpointId: endpoint.id,
      url: endpoint.url,
      status: 'pending',
      attempts: 0,
      scheduleAttempts: 0,
      nextRetryAt: now,
      created: now,
      updated: now,
    };
    await deps.webhookDeliveries.insert(delivery);
    deliveries.push(delivery);
  }
  return deliveries;
}
