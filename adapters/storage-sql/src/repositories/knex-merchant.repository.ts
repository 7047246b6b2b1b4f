import { notFound, type Merchant, type MerchantRepository, type MerchantSettingsChange, type SettlementSchedule } from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';

export interface MerchantRow {
  id: string;
  name: string;
  email: string;
  live_enabled: number | boolean;
  settlement_currency: string;
  settlement_schedule: SettlementSchedule;
  settlement_delay_days: number;
  api_version: string | null;
  support_email?: string | null;
  statement_descriptor?: string | null;
  created_at: BigIntValue;
}

function toRow(merchant: Merchant): MerchantRow {
  return {
    id: merchant.id,
    name: merchant.name,
    email: merchant.email,
    live_enabled: merchant.liveEnabled ? 1 : 0,
    settlement_currency: merchant.settlementCurrency,
    settlement_schedule: merchant.settlementSchedule,
    settlement_delay_days: merchant.settlementDelayDays,
    api_version: toNullable(merchant.apiVersion),
    support_email: toNullable(merchant.supportEmail),
    statement_descriptor: toNullable(merchant.statementDescriptor),
    created_at: toMillis(merchant.created),
  };
}

export function merchantFromRow(row: MerchantRow): Merchant {
  return withoutUndefined({
    id: row.id,
    name: row.name,
    email: row.email,
    liveEnabled: Boolean(row.live_enabled),
    settlementCurrency: row.settlement_currency,
    settlementSchedule: row.settlement_schedule,
    settlementDelayDays: row.settlement_delay_days,
    apiVersion: toOptional(row.api_version),
    supportEmail: toOptional(row.support_email ?? null),
    statementDescriptor: toOptional(row.statement_descriptor ?? null),
    created: toDate(row.created_at),
  });
}

export class KnexMerchantRepository extends KnexTable<MerchantRow> implements MerchantRepository {
  protected readonly tableName = 'merchants';

  async insert(merchant: Merchant): Promise<void> {
    await this.insertRow(toRow(merchant));
  }

  async findById(id: string): Promise<Merchant | undefined> {
    const row = await this.first(this.table().where({ id }));
    return row === undefined ? undefined : merchantFromRow(row);
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.first(this.table().select('id'));
    return row === undefined;
  }

  /** Throws 404 `resource_not_found` for an unknown merchant. */
  async pinApiVersion(id: string, version: string): Promise<string> {
    // Conditional on NULL so concurrent first requests cannot overwrite each other's pin.
    await this.changed(this.table().where({ id }).whereNull('api_version').update({ api_version: version }));
    const row = await this.first(this.table().select('api_version').where({ id }));
    if (row === undefined) throw notFound('merchant', id);
    return row.api_version ?? version;
  }

  async updateSettings(id: string, change: MerchantSettingsChange): Promise<Merchant | undefined> {
    const columns: Partial<MerchantRow> = {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.supportEmail === undefined ? {} : { support_email: change.supportEmail }),
      ...(change.statementDescriptor === undefined ? {} : { statement_descriptor: change.statementDescriptor }),
      ...(change.settlementSchedule === undefined ? {} : { settlement_schedule: change.settlementSchedule }),
    };
    if (Object.keys(columns).length > 0) await this.changed(this.table().where({ id }).update(columns));
    return this.findById(id);
  }

  async setLiveEnabled(id: string, enabled: boolean): Promise<boolean> {
    // mysql2 sets CLIENT_FOUND_ROWS, so matched rows count even when the value does not change.
    const matched = await this.changed(
      this.table()
        .where({ id })
        .update({ live_enabled: enabled ? 1 : 0 }),
    );
    return matched > 0;
  }

  async listBySchedule(schedules: readonly SettlementSchedule[], page: { readonly afterId?: string; readonly limit: number }): Promise<Merchant[]> {
    const query = this.table().whereIn('settlement_schedule', [...schedules]);
    if (page.afterId !== undefined) query.where('id', '>', page.afterId);
    return (await this.rows(query.orderBy('id', 'asc').limit(page.limit, INLINE))).map(merchantFromRow);
  }
}
