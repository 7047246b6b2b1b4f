import { token } from '../../common';
import type { ApiKey } from '../domain/api-key.entity';
import type { Merchant } from '../domain/merchant.entity';

/** A key whose prefix matched, with its merchant: what authentication needs, read together. */
export interface ApiKeyWithMerchant {
  readonly key: ApiKey;
  readonly merchant: Merchant;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  /**
   * Keys, revoked ones included, whose stored prefix is `prefix`, each with its merchant, in one
   * read: every authenticated request runs it, so it is one round trip, not two.
   */
  findByPrefix(prefix: string): Promise<ApiKeyWithMerchant[]>;
  /** The merchant's keys that are not revoked (both modes), newest first. */
  listActive(merchantId: string): Promise<ApiKey[]>;
  /** The merchant's key, revoked or not; undefined otherwise (another merchant's included). */
  findById(merchantId: string, id: string): Promise<ApiKey | undefined>;
  /**
   * Revokes the merchant's key at `at` unless it is revoked already (the first revocation time
   * stays); returns the key as stored afterwards, or undefined when the merchant has no such key.
   */
  revoke(merchantId: string, id: string, at: Date): Promise<ApiKey | undefined>;
}
export const ApiKeyRepository = token<ApiKeyRepository>('ApiKeyRepository');
