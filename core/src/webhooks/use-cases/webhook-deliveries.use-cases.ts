import type { AuditRecorder, User } from '../../dashboard';
import type { Clock, Mode, Page, UnitOfWork } from '../../common';
import { notFound } from '../../common';
import { renderedAt, renderEventBody } from '../domain/event-rendering';
import { armResend, type WebhookDelivery, type WebhookDeliveryAttempt } from '../domain/webhook-delivery.entity';
import type { EventOutbox } from '../ports/event-outbox.port';
import type { WebhookDeliveryListRequest, WebhookDeliveryRepository, WebhookEndpointHealth } from '../ports/webhook-delivery.repository.port';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';
export interface ListWebhookDeliveriesDeps {
  readonly deliveries: WebhookDeliveryRepository;
}

/**
 * The deliveries of the actor's merchant, newest first: of one endpoint (whatever its mode) or all
 * of them, and of one mode when `mode` is given, else of both.
 */
export class ListWebhookDeliveries {
  constructor(private readonly deps: ListWebhookDeliveriesDeps) {}

  execute(actor: User, mode: Mode | undefined, page: WebhookDeliveryListRequest): Promise<Page<WebhookDelivery>> {
    return this.deps.deliveries.list({ merchantId: actor.merchantId, ...(mode === undefined ? {} : { mode }) }, page);
  }
}
export interface ResendWebhookDeliveryDeps {
  readonly uow: UnitOfWork;
  readonly deliveries: WebhookDeliveryRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
}

/**
 * Re-arms one attempt of a delivery for the next relay pass (never calls the endpoint itself).
 * The delivery names its mode, so none is needed; `mode`, when given, is a filter (a delivery of
 * the other mode is then 404, like another merchant's).
 */
export class ResendWebhookDelivery {
  constructor(private readonly deps: ResendWebhookDeliveryDeps) {}

  execute(actor: User, mode: Mode | undefined, id: string): Promise<WebhookDelivery> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const found = await self.deps.deliveries.findById({ merchantId: actor.merchantId, ...(mode === undefined ? {} : { mode }) }, id);
      if (!found) throw notFound('webhook delivery', id);
      const next = armResend(found, self.deps.clock.now());
      if (!(await self.deps.deliveries.rearm(next))) throw notFound('webhook delivery', id);
      await self.deps.audit.recordAction(actor, 'webhook_deliveries.write', { type: 'webhook_delivery', id }, { change: 'resent' });
      return next;
    });
  }
}
export interface GetWebhookEndpointHealthDeps {
  readonly deliveries: WebhookDeliveryRepository;
}

/** Success rate and last error of an endpoint, for the dashboard. */
export class GetWebhookEndpointHealth {
  constructor(private readonly deps: GetWebhookEndpointHealthDeps) {}

  execute(endpointId: string): Promise<WebhookEndpointHealth> {
    return this.deps.deliveries.endpointHealth(endpointId);
  }
}

export interface WebhookDeliveryEventTypesDeps {
  readonly events: EventOutbox;
}

/** The type of each delivery's event (by event id), for the delivery log; an event no longer found is left out. */
export class WebhookDeliveryEventTypes {
  constructor(private readonly deps: WebhookDeliveryEventTypesDeps) {}

  async execute(deliveries: readonly WebhookDelivery[]): Promise<ReadonlyMap<string, string>> {
    const wanted = new Map(deliveries.map((delivery) => [delivery.eventId, delivery] as const));
    const found = await Promise.all(
      [...wanted.values()].map((delivery) => this.deps.events.findById({ merchantId: delivery.merchantId, mode: delivery.mode }, delivery.eventId)),
    );
    return new Map(found.flatMap((event) => (event ? [[event.id, event.type] as const] : [])));
  }
}

/** One delivery as its log shows it: its event's type, the body sent, and each attempt with the endpoint's answer. */
export interface WebhookDeliveryDetail {
  readonly delivery: WebhookDelivery;
  readonly eventType?: string;
  /** The body the last attempt sent (or the next one will): the event rendered at that attempt's version again. */
  readonly requestBody?: string;
  readonly apiVersion: string;
  readonly attempts: readonly WebhookDeliveryAttempt[];
}

export interface GetWebhookDeliveryDeps {
  readonly deliveries: WebhookDeliveryRepository;
  readonly events: EventOutbox;
  readonly endpoints: WebhookEndpointRepository;
}

/**
 * One delivery of the actor's merchant (`mode`, when given, a filter as for the list) with what
 * was sent and answered. The body is not stored: it is the event rendered again at the version
 * the last attempt used (the endpoint's version for a delivery not tried yet, or tried before the
 * version was logged), the same bytes the relay signed.
 */
export class GetWebhookDelivery {
  constructor(private readonly deps: GetWebhookDeliveryDeps) {}

  async execute(actor: User, mode: Mode | undefined, id: string): Promise<WebhookDeliveryDetail> {
    const delivery = await this.deps.deliveries.findById({ merchantId: actor.merchantId, ...(mode === undefined ? {} : { mode }) }, id);
    if (!delivery) throw notFound('webhook delivery', id);
    const [event, endpoint, attempts] = await Promise.all([
      this.deps.events.findById({ merchantId: delivery.merchantId, mode: delivery.mode }, delivery.eventId),
      this.deps.endpoints.findById(delivery.merchantId, delivery.endpointId),
      this.deps.deliveries.listAttempts(delivery.id),
    ]);
    const apiVersion = renderedAt(attempts.at(-1)?.apiVersion ?? endpoint?.apiVersion);
    return {
      delivery,
      apiVersion,
      attempts,
      ...(event ? { eventType: event.type, requestBody: renderEventBody(event, apiVersion) } : {}),
    };
  }
}
