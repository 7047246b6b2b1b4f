import type { SigningKey } from '../domain/signing-key.entity';
import type { User } from '../domain/user.entity';
import type { SigningKeyRepository } from '../ports/signing-key.repository.port';
export interface ListSigningKeysDeps {
  readonly keys: SigningKeyRepository;
}

/** The merchant's Ed25519 public keys, newest first. */
export class ListSigningKeys {
  constructor(private readonly deps: ListSigningKeysDeps) {}

  execute(actor: User): Promise<SigningKey[]> {
    return this.deps.keys.listByMerchant(actor.merchantId);
  }
}
