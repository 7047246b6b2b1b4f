import { CoreError, type SigningKey, type SigningKeyRepository } from '@payments/core';
import { copiesOf, newestFirst, type InMemoryStore } from './in-memory-store';

export class InMemorySigningKeyRepository implements SigningKeyRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(key: SigningKey): Promise<void> {
    return this.store.atomic(() => {
      const table = this.store.tables.signingKeys;
      if (table.has(key.id)) throw new Error(`Duplicate signing key id ${key.id}`);
      for (const row of table.values()) {
        if (row.value.merchantId === key.merchantId && row.value.publicKey === key.publicKey) {
          throw new CoreError('signing_key_exists', 'conflict', 'This public key is registered already.', { param: 'public_key' });
        }
      }
      table.set(key.id, this.store.sequenced(key));
    });
  }

  listByMerchant(merchantId: string): Promise<SigningKey[]> {
    return this.store.atomic(() =>
      copiesOf([...this.store.tables.signingKeys.values()].filter((row) => row.value.merchantId === merchantId).sort(newestFirst)),
    );
  }
}
