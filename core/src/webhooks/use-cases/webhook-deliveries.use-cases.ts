import type { AuditRecorder, User } from '../../dashboard';
import type { Clock, Mode, Page, UnitOfWork } from '../../common';
import { notFound } from '../../common';
import { armResend, type WebhookDelivery } from '../domain/webhook-delivery.entity';
import type { WebhookDeliveryListRequest, WebhookDeliveryRepository, WebhookEndpointHealth } from '../ports/webhook-delivery.repository.port';
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
    return this.deps.uow.run(async () => {
      const found = await this.deps.deliveries.findById({ merchantId: actor.merchantId, ...(mode === undefined ? {} : { mode }) }, id);
      if (!found) throw notFound('webhook delivery', id);
      const next = armResend(found, this.deps.clock.now());
      if (!(await this.deps.deliveries.rearm(next))) throw notFound('webhook delivery', id);
      await this.deps.audit.recordAction(actor, 'webhook_deliveries.write', { type: 'webhook_delivery', id }, { change: 'resent' });
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
