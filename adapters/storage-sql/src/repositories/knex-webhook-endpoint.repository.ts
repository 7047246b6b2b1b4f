import type { AccountScope, Mode, WebhookEndpoint, WebhookEndpointDisabledReason, WebhookEndpointRepository, WebhookEndpointStatus } from '@payments/core';
import { KnexTable } from '../knex-context';
import { fromJson, toDate, toMillis, toNullable, toOptional, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface WebhookEndpointRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  url: string;
  enabled_events: string;
  description: string | null;
  api_version: string;
  status: WebhookEndpointStatus;
  disabled_reason: WebhookEndpointDisabledReason | null;
  secret_sealed: string;
  secret_version: number;
  created_at: BigIntValue;
  updated_at: BigIntValue;
  deleted_at: BigIntValue | null;
}

function toEntity(row: WebhookEndpointRow): WebhookEndpoint {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    url: row.url,
    enabledEvents: fromJson<string[]>(row.enabled_events),
    description: toOptional(row.description),
    apiVersion: row.api_version,
    status: row.status,
    disabledReason: toOptional(row.disabled_reason),
    secretSealed: row.secret_sealed,
    secretVersion: row.secret_version,
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
    deletedAt: toOptionalDate(row.deleted_at),
  });
}

export class KnexWebhookEndpointRepository extends KnexTable<WebhookEndpointRow> implements WebhookEndpointRepository {
  protected readonly tableName = 'webhook_endpoints';

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.insertRow({
      id: endpoint.id,
      merchant_id: endpoint.merchantId,
      mode: endpoint.mode,
      url: endpoint.url,
      enabled_events: JSON.stringify(endpoint.enabledEvents),
      description: toNullable(endpoint.description),
      api_version: endpoint.apiVersion,
      status: endpoint.status,
      disabled_reason: toNullable(endpoint.disabledReason),
      secret_sealed: endpoint.secretSealed,
      secret_version: endpoint.secretVersion,
      created_at: toMillis(endpoint.created),
      updated_at: toMillis(endpoint.updated),
      deleted_at: endpoint.deletedAt === undefined ? null : toMillis(endpoint.deletedAt),
    });
  }

  async findById(merchantId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.first(this.table().where({ merchant_id: merchantId, id }).whereNull('deleted_at'));
    return row === undefined ? undefined : toEntity(row);
  }

  async list(scope: AccountScope): Promise<WebhookEndpoint[]> {
    const rows = await this.rows(this.table().where({ merchant_id: scope.merchantId, mode: scope.mode }).whereNull('deleted_at').orderBy('seq', 'desc'));
    return rows.map(toEntity);
  }

  async update(endpoint: WebhookEndpoint): Promise<boolean> {
    const matched = await this.changed(
      this.table()
        .where({ merchant_id: endpoint.merchantId, id: endpoint.id })
        .whereNull('deleted_at')
        .update({
          url: endpoint.url,
          enabled_events: JSON.stringify(endpoint.enabledEvents),
          description: toNullable(endpoint.description),
          api_version: endpoint.apiVersion,
          status: endpoint.status,
          disabled_reason: toNullable(endpoint.disabledReason),
          updated_at: toMillis(endpoint.updated),
        }),
    );
    return matched > 0;
  }

  async markDeleted(merchantId: string, id: string, at: Date): Promise<boolean> {
    const matched = await this.changed(
      this.table()
        .where({ merchant_id: merchantId, id })
        .whereNull('deleted_at')
        .update({ deleted_at: toMillis(at), updated_at: toMillis(at) }),
    );
    return matched > 0;
  }
}
