import type { ApiKey } from '../domain/api-key.entity';

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  /** Keys, revoked ones included, whose stored prefix is `prefix`. */
  findByPrefix(prefix: string): Promise<ApiKey[]>;
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
export const ApiKeyRepository = Symbol('ApiKeyRepository');
