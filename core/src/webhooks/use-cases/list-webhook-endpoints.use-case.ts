import type { Mode } from '../../shared';
import type { User } from '../../dashboard';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.entity';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';

/** The endpoints of the actor's merchant in one mode, newest first; deleted ones are not listed. */
export class ListWebhookEndpoints {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  execute(actor: User, mode: Mode): Promise<WebhookEndpoint[]> {
    return this.endpoints.list({ merchantId: actor.merchantId, mode });
  }
}
