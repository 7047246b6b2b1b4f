import type { PlatformKey, PlatformKeyRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryPlatformKeyRepository implements PlatformKeyRepository {
  constructor(private readonly store: InMemoryStore) {}

  list(): Promise<PlatformKey[]> {
    return this.store.atomic(() => this.store.tables.platformKeys.map((key) => deepCopy(key)));
  }

  insert(key: PlatformKey): Promise<void> {
    return this.store.atomic(() => {
      this.store.tables.platformKeys.push(deepCopy(key));
    });
  }

  insertFirst(key: PlatformKey): Promise<PlatformKey[]> {
    return this.store.atomic(() => {
      if (this.store.tables.platformKeys.length === 0) this.store.tables.platformKeys.push(deepCopy(key));
      return this.store.tables.platformKeys.map((stored) => deepCopy(stored));
    });
  }
}
