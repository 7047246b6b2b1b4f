import { notFound, type Merchant, type MerchantRepository } from '@payments/core';
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

  setLiveEnabled(id: string, enabled: boolean): Promise<boolean> {
    return this.store.atomic(() => {
      const merchant = this.store.tables.merchants.get(id);
      if (!merchant) return false;
      this.store.tables.merchants.set(id, { ...merchant, liveEnabled: enabled });
      return true;
    });
  }
}
