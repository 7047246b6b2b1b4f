import type { Clock, RandomSource, SecretBox } from '../../common';
import { newId } from '../../common';
import { activePlatformKey, type PlatformKey } from '../domain/platform-key.entity';
import type { PlatformKeyRepository } from '../ports/platform-key.repository.port';
import type { WebhookCrypto } from '../ports/webhook-crypto.port';

export interface PlatformKeyOptions {
  /** Seconds between a rotation publishing a key and deliveries being signed with it. */
  readonly activationSeconds: number;
}

/** A platform key opened for signing. */
export interface SigningPlatformKey {
  readonly id: string;
  readonly privateKey: string;
}
export interface PlatformKeysDeps {
  readonly keys: PlatformKeyRepository;
  readonly crypto: WebhookCrypto;
  readonly secretBox: SecretBox;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly options: PlatformKeyOptions;
}

/**
 * The platform's Ed25519 webhook keys: the first is generated on first need (active at once),
 * a rotation publishes a new key now and activates it after the activation delay.
 */
export class PlatformKeys {
  constructor(private readonly deps: PlatformKeysDeps) {}

  private generate(now: Date, activeFrom: Date): PlatformKey {
    const pair = this.deps.crypto.generateEd25519();
    return {
      id: newId(this.deps.random, 'webhook_public_key'),
      publicKey: pair.publicKey,
      privateKeySealed: this.deps.secretBox.seal(pair.privateKey),
      publishedAt: now,
      activeFrom,
      created: now,
    };
  }

  /** Every key, generating the first when there is none. */
  private async all(now: Date): Promise<PlatformKey[]> {
    const keys = await this.deps.keys.list();
    return keys.length > 0 ? keys : this.deps.keys.insertFirst(this.generate(now, now));
  }

  /** The key deliveries are signed with now. */
  async signingKey(): Promise<SigningPlatformKey> {
    const now = this.deps.clock.now();
    const keys = await this.all(now);
    const key = activePlatformKey(keys, now) ?? keys[0];
    if (!key) throw new Error('No platform key');
    return { id: key.id, privateKey: this.deps.secretBox.open(key.privateKeySealed) };
  }

  /** Published keys, oldest first (no private material). */
  async published(): Promise<PlatformKey[]> {
    const now = this.deps.clock.now();
    return (await this.all(now)).filter((key) => key.publishedAt.getTime() <= now.getTime());
  }

  /** Publishes a new key now; it signs from now + the activation delay. */
  async rotate(): Promise<PlatformKey> {
    const now = this.deps.clock.now();
    await this.all(now);
    const key = this.generate(now, new Date(now.getTime() + this.deps.options.activationSeconds * 1000));
    await this.deps.keys.insert(key);
    return key;
  }
}
