import type { AccountScope } from '../../common';
import { token } from '../../common';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.entity';

export interface WebhookEndpointRepository {
  insert(endpoint: WebhookEndpoint): Promise<void>;
  /** The merchant's endpoint (of either mode) unless deleted; undefined otherwise (another merchant's included). */
  findById(merchantId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** The scope's endpoints that are not deleted, newest first. */
  list(scope: AccountScope): Promise<WebhookEndpoint[]>;
  /**
   * Stores url, enabled events, description, api version, status and updated time of a
   * not-deleted endpoint; false when there is none to update.
   */
  update(endpoint: WebhookEndpoint): Promise<boolean>;
  /** Marks the endpoint deleted (the row stays, a tombstone); false when it is unknown or deleted already. */
  markDeleted(merchantId: string, id: string, at: Date): Promise<boolean>;
}
export const WebhookEndpointRepository = token<WebhookEndpointRepository>('WebhookEndpointRepository');
