import type { ApiKeyPermissions, IssueApiKey, IssuedApiKey } from '../../merchants';
import { apiKeyKindOf, validateApiKeyPermissions } from '../../merchants';
import type { Mode, UnitOfWork } from '../../common';
import { validateLabel } from '../../common';
import { authorizeKeyMint } from '../domain/api-key-limits';
import type { User } from '../domain/user.entity';
import type { AuditRecorder } from './audit';

export const API_KEY_NAME_LENGTH = 100;
export interface CreateApiKeyDeps {
  readonly uow: UnitOfWork;
  readonly issueApiKey: IssueApiKey;
  readonly audit: AuditRecorder;
}

/**
 * Mints a key from the dashboard: a secret key, or with `permissions` a restricted one. A live
 * key may not exceed the person minting it (403 `insufficient_permissions`, before anything is
 * written); then IssueApiKey's rules (a live key before review is 403 `live_not_enabled`), with
 * the audit entry in the same transaction. The plaintext is in the answer only.
 */
export class CreateApiKey {
  constructor(private readonly deps: CreateApiKeyDeps) {}

  async execute(actor: User, input: { mode: Mode; name?: string; permissions?: unknown }): Promise<IssuedApiKey> {
    const name = input.name === undefined ? undefined : validateLabel(input.name, 'name', API_KEY_NAME_LENGTH);
    const permissions: ApiKeyPermissions | undefined = input.permissions === undefined ? undefined : validateApiKeyPermissions(input.permissions);
    authorizeKeyMint(actor.role, input.mode, permissions);
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const issued = await self.deps.issueApiKey.execute({ merchantId: actor.merchantId, mode: input.mode, name, permissions });
      await self.deps.audit.recordAction(
        actor,
        'api_keys.write',
        { type: 'api_key', id: issued.key.id },
        {
          change: 'created',
          mode: issued.key.mode,
          prefix: issued.key.prefix,
          kind: apiKeyKindOf(issued.key),
          // `payment_intents:write balance:read`: what the key was given, in the order of the resources.
          ...(permissions === undefined
            ? {}
            : {
                permissions: Object.entries(permissions)
                  .map(([resource, access]) => `${resource}:${access}`)
                  .join(' '),
              }),
        },
      );
      return issued;
    });
  }
}
