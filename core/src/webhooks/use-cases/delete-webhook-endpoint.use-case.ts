import type { AuditRecorder } from '../../dashboard';
import type { User } from '../../dashboard';
import { notFound } from '../../shared';
import type { Clock } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

/**
 * Deletes an endpoint: nothing more is queued for it, but the row stays as a tombstone so earlier
 * deliveries keep the address they were made to. Afterwards (and for another merchant) it is 404.
 */
export class DeleteWebhookEndpoint {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  execute(actor: User, id: string): Promise<{ id: string }> {
    return this.uow.run(async () => {
      if (!(await this.endpoints.markDeleted(actor.merchantId, id, this.clock.now()))) throw notFound('webhook endpoint', id);
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'webhook_endpoints.write', objectType: 'webhook_endpoint', objectId: id, details: { change: 'deleted' } });
      return { id };
    });
  }
}
