import type { User } from '../../dashboard';
import type { Mode } from '../../common';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.entity';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint.repository.port';
export interface ListWebhookEndpointsDeps {
  readonly endpoints: WebhookEndpointRepository;
}

/** The endpoints of the actor's merchant in one mode, newest first; deleted ones are not listed. */
export class ListWebhookEndpoints {
  constructor(private readonly deps: ListWebhookEndpointsDeps) {}

  execute(actor: User, mode: Mode): Promise<WebhookEndpoint[]> {
    return this.deps.endpoints.list({ merchantId: actor.merchantId, mode });
  }
}
