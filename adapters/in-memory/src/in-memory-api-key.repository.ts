import type { ApiKey, ApiKeyRepository, ApiKeyWithMerchant } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(key: ApiKey): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.apiKeys.has(key.id)) throw new Error(`Duplicate API key id ${key.id}`);
      this.store.tables.apiKeys.set(key.id, deepCopy(key));
    });
  }

  findByPrefix(prefix: string): Promise<ApiKeyWithMerchant[]> {
    return this.store.atomic(() =>
      [...this.store.tables.apiKeys.values()]
        .filter((key) => key.prefix === prefix)
        .sort((a, b) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1))
        .flatMap((key) => {
          const merchant = this.store.tables.merchants.get(key.merchantId);
          return merchant === undefined ? [] : [{ key: deepCopy(key), merchant: deepCopy(merchant) }];
        }),
    );
  }

  listActive(merchantId: string): Promise<ApiKey[]> {
    return this.store.atomic(() =>
      [...this.store.tables.apiKeys.values()]
        .filter((key) => key.merchantId === merchantId && key.revokedAt === undefined)
        .sort((a, b) => b.created.getTime() - a.created.getTime() || (a.id < b.id ? 1 : -1))
        .map((key) => deepCopy(key)),
    );
  }

  findById(merchantId: string, id: string): Promise<ApiKey | undefined> {
    return this.store.atomic(() => {
      const key = this.store.tables.apiKeys.get(id);
      return key?.merchantId === merchantId ? deepCopy(key) : undefined;
    });
  }

  revoke(merchantId: string, id: string, at: Date): Promise<ApiKey | undefined> {
    return this.store.atomic(() => {
      const key = this.store.tables.apiKeys.get(id);
      if (key?.merchantId !== merchantId) return undefined;
      const revoked = key.revokedAt === undefined ? { ...key, revokedAt: new Date(at.getTime()) } : key;
      this.store.tables.apiKeys.set(id, revoked);
      return deepCopy(revoked);
    });
  }
}
