import { notFound, type Merchant, type MerchantRepository, type MerchantSettingsChange, type SettlementSchedule } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryMerchantRepository implements MerchantRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(merchant: Merchant): Promise<void> {
    return this.store.atomic(() => {
      // The primary key, as in SQL: a repeated id is a bug, not a user error.
      if (this.store.tables.merchants.has(merchant.id)) throw new Error(`Duplicate merchant id ${merchant.id}`);
      this.store.tables.merchants.set(merchant.id, deepCopy(merchant));
    });
  }

  findById(id: string): Promise<Merchant | undefined> {
    return this.store.atomic(() => deepCopy(this.store.tables.merchants.get(id)));
  }

  isEmpty(): Promise<boolean> {
    return this.store.atomic(() => this.store.tables.merchants.size === 0);
  }

  /** Throws 404 `resource_not_found` for an unknown merchant. */
  pinApiVersion(id: string, version: string): Promise<string> {
    return this.store.atomic(() => {
      const merchant = this.store.tables.merchants.get(id);
      if (!merchant) throw notFound('merchant', id);
      if (merchant.apiVersion !== undefined) return merchant.apiVersion;
      this.store.tables.merchants.set(id, { ...merchant, apiVersion: version });
      return version;
    });
  }

  updateSettings(id: string, change: MerchantSettingsChange): Promise<Merchant | undefined> {
    return this.store.atomic(() => {
      const merchant = this.store.tables.merchants.get(id);
      if (!merchant) return undefined;
      const updated: Merchant = deepCopy({
        ...merchant,
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.supportEmail === undefined ? {} : { supportEmail: change.supportEmail ?? undefined }),
        ...(change.statementDescriptor === undefined ? {} : { statementDescriptor: change.statementDescriptor ?? undefined }),
        ...(change.settlementSchedule === undefined ? {} : { settlementSchedule: change.settlementSchedule }),
      });
      this.store.tables.merchants.set(id, updated);
      return deepCopy(updated);
    });
  }

  setLiveEnabled(id: string, enabled: boolean): Promise<boolean> {
    return this.store.atomic(() => {
      const merchant = this.store.tables.merchants.get(id);
      if (!merchant) return false;
      this.store.tables.merchants.set(id, { ...merchant, liveEnabled: enabled });
      return true;
    });
  }

  listBySchedule(schedules: readonly SettlementSchedule[], page: { readonly afterId?: string; readonly limit: number }): Promise<Merchant[]> {
    return this.store.atomic(() =>
      [...this.store.tables.merchants.values()]
        .filter((merchant) => schedules.includes(merchant.settlementSchedule) && (page.afterId === undefined || merchant.id > page.afterId))
        // Byte order, as the SQL adapter's binary collation sorts ids.
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, page.limit)
        .map((merchant) => deepCopy(merchant)),
    );
  }
}
