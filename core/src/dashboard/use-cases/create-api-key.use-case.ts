import type { AuditRecorder } from './audit';
import { validateLabel } from '../../shared';
import type { Mode } from '../../shared';
import type { User } from '../domain/user.entity';
import type { UnitOfWork } from '../../shared';
import type { IssueApiKey, IssuedApiKey } from '../../merchants';

export const API_KEY_NAME_LENGTH = 100;

/**
 * Mints a key from the dashboard: IssueApiKey's rules (a live key before review is 403
 * `live_not_enabled`), with the audit entry in the same transaction. The plaintext is in the
 * answer only.
 */
export class CreateApiKey {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly issueApiKey: IssueApiKey,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(actor: User, input: { mode: Mode; name?: string }): Promise<IssuedApiKey> {
    const name = input.name === undefined ? undefined : validateLabel(input.name, 'name', API_KEY_NAME_LENGTH);
    return this.uow.run(async () => {
      const issued = await this.issueApiKey.execute({ merchantId: actor.merchantId, mode: input.mode, name });
      await this.audit.record({
        merchantId: actor.merchantId,
        userId: actor.id,
        action: 'api_keys.write',
        objectType: 'api_key',
        objectId: issued.key.id,
        details: { change: 'created', mode: issued.key.mode, prefix: issued.key.prefix },
      });
      return issued;
    });
  }
}
