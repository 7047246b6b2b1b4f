import type { ApiKey, ApiKeyRepository } from '../../merchants';
import type { User } from '../domain/user.entity';
export interface ListApiKeysDeps {
  readonly keys: ApiKeyRepository;
}

/** The merchant's keys that still work (both modes), newest first; revoked keys are not listed. */
export class ListApiKeys {
  constructor(private readonly deps: ListApiKeysDeps) {}

  execute(actor: User): Promise<ApiKey[]> {
    return this.deps.keys.listActive(actor.merchantId);
  }
}
