import type { AccountScope, WebhookEndpoint, WebhookEndpointRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import { copiesOf, inScope, newestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly store: InMemoryStore) {}

  private live(merchantId: string, id: string) {
    const row = this.store.tables.webhookEndpoints.get(id);
    return row && row.value.merchantId === merchantId && row.value.deletedAt === undefined ? row : undefined;
  }

  insert(endpoint: WebhookEndpoint): Promise<void> {
    return this.store.atomic(() => {
      this.store.insertRow(this.store.tables.webhookEndpoints, endpoint.id, endpoint, 'webhook endpoint');
    });
  }

  findById(merchantId: string, id: string): Promise<WebhookEndpoint | undefined> {
    return this.store.atomic(() => deepCopy(this.live(merchantId, id)?.value));
  }

  list(scope: AccountScope): Promise<WebhookEndpoint[]> {
    return this.store.atomic(() =>
      copiesOf(
        [...this.store.tables.webhookEndpoints.values()].filter((row) => inScope(row.value, scope) && row.value.deletedAt === undefined).sort(newestFirst),
      ),
    );
  }

  update(endpoint: WebhookEndpoint): Promise<boolean> {
    return this.store.atomic(() => {
      const row = this.live(endpoint.merchantId, endpoint.id);
      if (!row) return false;
      // Only the changeable fields, as the SQL adapter stores them.
      const { description: _old, disabledReason: _reason, ...rest } = row.value;
      void _old;
      void _reason;
      const updated: WebhookEndpoint = {
        ...rest,
        ...(endpoint.description === undefined ? {} : { description: endpoint.description }),
        ...(endpoint.disabledReason === undefined ? {} : { disabledReason: endpoint.disabledReason }),
        url: endpoint.url,
        enabledEvents: [...endpoint.enabledEvents],
        apiVersion: endpoint.apiVersion,
        status: endpoint.status,
        updated: new Date(endpoint.updated.getTime()),
      };
      this.store.tables.webhookEndpoints.set(endpoint.id, { ...row, value: deepCopy(updated) });
      return true;
    });
  }

  markDeleted(merchantId: string, id: string, at: Date): Promise<boolean> {
    return this.store.atomic(() => {
      const row = this.live(merchantId, id);
      if (!row) return false;
      this.store.tables.webhookEndpoints.set(id, { ...row, value: { ...row.value, deletedAt: new Date(at.getTime()), updated: new Date(at.getTime()) } });
      return true;
    });
  }
}
