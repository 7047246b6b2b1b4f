import type { Clock, RandomSource, UnitOfWork } from '../../common';
import { invalidParameter, newId, validateLabel } from '../../common';
import { assertRawEd25519Base64, SIGNING_KEY_NAME_LENGTH, type SigningKey } from '../domain/signing-key.entity';
import type { User } from '../domain/user.entity';
import type { Ed25519KeyCheck } from '../ports/ed25519-key-check.port';
import type { SigningKeyRepository } from '../ports/signing-key.repository.port';
import type { AuditRecorder } from './audit';
export interface RegisterSigningKeyDeps {
  readonly uow: UnitOfWork;
  readonly keys: SigningKeyRepository;
  readonly check: Ed25519KeyCheck;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/**
 * Registers the public half of an Ed25519 pair the merchant generated: a raw 32-byte key in
 * standard base64 that the crypto library accepts as Ed25519, else 400 naming `public_key`. The
 * same key twice is 409 `signing_key_exists`.
 */
export class RegisterSigningKey {
  constructor(private readonly deps: RegisterSigningKeyDeps) {}

  async execute(actor: User, input: { publicKey: string; name?: string }): Promise<SigningKey> {
    assertRawEd25519Base64(input.publicKey);
    if (!this.deps.check.isPublicKey(input.publicKey)) {
      throw invalidParameter('public_key', 'public_key is not an Ed25519 public key.');
    }
    const name = input.name === undefined ? undefined : validateLabel(input.name, 'name', SIGNING_KEY_NAME_LENGTH);
    const key: SigningKey = {
      id: newId(this.deps.random, 'signing_key'),
      merchantId: actor.merchantId,
      algorithm: 'ed25519',
      publicKey: input.publicKey,
      ...(name === undefined ? {} : { name }),
      created: this.deps.clock.now(),
    };
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.keys.insert(key);
      await self.deps.audit.recordAction(actor, 'signing_keys.write', { type: 'signing_key', id: key.id }, { change: 'created' });
      return key;
    });
  }
}
