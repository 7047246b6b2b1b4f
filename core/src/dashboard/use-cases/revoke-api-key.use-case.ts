import type { ApiKey } from '../../merchants';
import type { AuditRecorder } from './audit';
import type { User } from '../domain/user.entity';
import { notFound } from '../../shared';
import type { ApiKeyRepository } from '../../merchants';
import type { Clock } from '../../shared';
import type { UnitOfWork } from '../../shared';

/**
 * Revokes one of the merchant's keys; `/v1` refuses it from the next request on (keys are looked
 * up on every request, nothing caches them). Revoking a revoked key answers it unchanged; another
 * merchant's key is 404.
 */
export class RevokeApiKey {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: ApiKeyRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  execute(actor: User, id: string): Promise<ApiKey> {
    return this.uow.run(async () => {
      const before = await this.keys.findById(actor.merchantId, id);
      if (!before) throw notFound('API key', id);
      if (before.revokedAt !== undefined) return before;
      const revoked = await this.keys.revoke(actor.merchantId, id, this.clock.now());
      if (!revoked) throw notFound('API key', id);
      await this.audit.record({
        merchantId: actor.merchantId,
        userId: actor.id,
        action: 'api_keys.write',
        objectType: 'api_key',
        objectId: id,
        details: { change: 'revoked', mode: revoked.mode, prefix: revoked.prefix },
      });
      return revoked;
    });
  }
}
