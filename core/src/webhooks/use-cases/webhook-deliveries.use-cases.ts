import type { AuditRecorder } from '../../dashboard';
import type { Mode } from '../../shared';
import type { User } from '../../dashboard';
import { armResend, type WebhookDelivery } from '../domain/webhook-delivery.entity';
import { notFound } from '../../shared';
import type { Clock } from '../../shared';
import type { Page } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { WebhookDeliveryListRequest, WebhookDeliveryRepository, WebhookEndpointHealth } from '../ports/webhook-delivery.repository.port';

/**
 * The deliveries of the actor's merchant, newest first: of one endpoint (whatever its mode) or all
 * of them, and of one mode when `mode` is given, else of both.
 */
export class ListWebhookDeliveries {
  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  execute(actor: User, mode: Mode | undefined, page: WebhookDeliveryListRequest): Promise<Page<WebhookDelivery>> {
    return this.deliveries.list({ merchantId: actor.merchantId, ...(mode === undefined ? {} : { mode }) }, page);
  }
}

/**
 * Re-arms one attempt of a delivery for the next relay pass (never calls the endpoint itself).
 * Another merchant's or mode's delivery is 404.
 */
export class ResendWebhookDelivery {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  execute(actor: User, mode: Mode, id: string): Promise<WebhookDelivery> {
    return this.uow.run(async () => {
      const found = await this.deliveries.findById({ merchantId: actor.merchantId, mode }, id);
      if (!found) throw notFound('webhook delivery', id);
      const next = armResend(found, this.clock.now());
      if (!(await this.deliveries.rearm(next))) throw notFound('webhook delivery', id);
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'webhook_deliveries.write', objectType: 'webhook_delivery', objectId: id, details: { change: 'resent' } });
      return next;
    });
  }
}

/** Success rate and last error of an endpoint, for the dashboard. */
export class GetWebhookEndpointHealth {
  constructor(private readonly deliveries: WebhookDeliveryRepository) {}

  execute(endpointId: string): Promise<WebhookEndpointHealth> {
    return this.deliveries.endpointHealth(endpointId);
  }
}
