import type { AuditRecorder } from './audit';
import { newId } from '../../shared';
import { validateLabel } from '../../shared';
import { assertRawEd25519Base64, SIGNING_KEY_NAME_LENGTH, type SigningKey } from '../domain/signing-key.entity';
import type { User } from '../domain/user.entity';
import { invalidParameter } from '../../shared';
import type { Clock } from '../../shared';
import type { Ed25519KeyCheck } from '../ports/ed25519-key-check.port';
import type { RandomSource } from '../../shared';
import type { SigningKeyRepository } from '../ports/signing-key.repository.port';
import type { UnitOfWork } from '../../shared';

/**
 * Registers the public half of an Ed25519 pair the merchant generated: a raw 32-byte key in
 * standard base64 that the crypto library accepts as Ed25519, else 400 naming `public_key`. The
 * same key twice is 409 `signing_key_exists`.
 */
export class RegisterSigningKey {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: SigningKeyRepository,
    private readonly check: Ed25519KeyCheck,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async execute(actor: User, input: { publicKey: string; name?: string }): Promise<SigningKey> {
    assertRawEd25519Base64(input.publicKey);
    if (!this.check.isPublicKey(input.publicKey)) {
      throw invalidParameter('public_key', 'public_key is not an Ed25519 public key.');
    }
    const name = input.name === undefined ? undefined : validateLabel(input.name, 'name', SIGNING_KEY_NAME_LENGTH);
    const key: SigningKey = {
      id: newId(this.random, 'signing_key'),
      merchantId: actor.merchantId,
      algorithm: 'ed25519',
      publicKey: input.publicKey,
      ...(name === undefined ? {} : { name }),
      created: this.clock.now(),
    };
    return this.uow.run(async () => {
      await this.keys.insert(key);
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'signing_keys.write', objectType: 'signing_key', objectId: key.id, details: { change: 'created' } });
      return key;
    });
  }
}
