import type { AuditRecorder, User } from '../../dashboard';
import type { Clock, UnitOfWork } from '../../common';
import { notFound } from '../../common';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';
export interface DeleteWebhookEndpointDeps {
  readonly uow: UnitOfWork;
  readonly endpoints: WebhookEndpointRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
}

/**
 * Deletes an endpoint: nothing more is queued for it, but the row stays as a tombstone so earlier
 * deliveries keep the address they were made to. Afterwards (and for another merchant) it is 404.
 */
export class DeleteWebhookEndpoint {
  constructor(private readonly deps: DeleteWebhookEndpointDeps) {}

  execute(actor: User, id: string): Promise<{ id: string }> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      if (!(await self.deps.endpoints.markDeleted(actor.merchantId, id, self.deps.clock.now()))) throw notFound('webhook endpoint', id);
      await self.deps.audit.recordAction(actor, 'webhook_endpoints.write', { type: 'webhook_endpoint', id }, { change: 'deleted' });
      return { id };
    });
  }
}
