import type { ApiKey, ApiKeyRepository } from '@payments/core';
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

  findByPrefix(prefix: string): Promise<ApiKey[]> {
    return this.store.atomic(() =>
      [...this.store.tables.apiKeys.values()]
        .filter((key) => key.prefix === prefix)
        .sort((a, b) => a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : 1))
        .map((key) => deepCopy(key)),
    );
  }
}
