import type { ApiKey } from '../domain/api-key.entity';

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  /** Keys, revoked ones included, whose stored prefix is `prefix`. */
  findByPrefix(prefix: string): Promise<ApiKey[]>;
}
export const ApiKeyRepository = Symbol('ApiKeyRepository');
