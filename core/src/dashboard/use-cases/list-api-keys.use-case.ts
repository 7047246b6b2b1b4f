import type { ApiKey } from '../../merchants';
import type { User } from '../domain/user.entity';
import type { ApiKeyRepository } from '../../merchants';

/** The merchant's keys that still work (both modes), newest first; revoked keys are not listed. */
export class ListApiKeys {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute(actor: User): Promise<ApiKey[]> {
    return this.keys.listActive(actor.merchantId);
  }
}
