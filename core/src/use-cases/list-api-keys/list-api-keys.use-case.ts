import type { ApiKey } from '../../domain/api-key.entity';
import type { User } from '../../domain/user.entity';
import type { ApiKeyRepository } from '../../ports/api-key.repository.port';

/** The merchant's keys that still work (both modes), newest first; revoked keys are not listed. */
export class ListApiKeys {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(actor: User): Promise<ApiKey[]> {
    return this.keys.listActive(actor.merchantId);
  }
}
