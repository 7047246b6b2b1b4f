import type { ApiKey, ApiKeyRepository } from '../../merchants';
import type { Clock, UnitOfWork } from '../../common';
import { notFound } from '../../common';
import type { User } from '../domain/user.entity';
import type { AuditRecorder } from './audit';
export interface RevokeApiKeyDeps {
  readonly uow: UnitOfWork;
  readonly keys: ApiKeyRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
}

/**
 * Revokes one of the merchant's keys; `/v1` refuses it from the next request on (keys are looked
 * up on every request, nothing caches them). Revoking a revoked key answers it unchanged; another
 * merchant's key is 404.
 */
export class RevokeApiKey {
  constructor(private readonly deps: RevokeApiKeyDeps) {}

  execute(actor: User, id: string): Promise<ApiKey> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const before = await self.deps.keys.findById(actor.merchantId, id);
      if (!before) throw notFound('API key', id);
      if (before.revokedAt !== undefined) return before;
      const revoked = await self.deps.keys.revoke(actor.merchantId, id, self.deps.clock.now());
      if (!revoked) throw notFound('API key', id);
      await self.deps.audit.recordAction(actor, 'api_keys.write', { type: 'api_key', id }, { change: 'revoked', mode: revoked.mode, prefix: revoked.prefix });
      return revoked;
    });
  }
}
