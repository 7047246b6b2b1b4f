import { newId } from '../../shared';
import { activePlatformKey, type PlatformKey } from '../domain/platform-key.entity';
import type { Clock } from '../../shared';
import type { PlatformKeyRepository } from '../ports/platform-key.repository.port';
import type { RandomSource } from '../../shared';
import type { SecretBox } from '../../shared';
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

/**
 * The platform's Ed25519 webhook keys: the first is generated on first need (active at once),
 * a rotation publishes a new key now and activates it after the activation delay.
 */
export class PlatformKeys {
  constructor(
    private readonly keys: PlatformKeyRepository,
    private readonly crypto: WebhookCrypto,
    private readonly secretBox: SecretBox,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly options: PlatformKeyOptions,
  ) {}

  private generate(now: Date, activeFrom: Date): PlatformKey {
    const pair = this.crypto.generateEd25519();
    return {
      id: newId(this.random, 'webhook_public_key'),
      publicKey: pair.publicKey,
      privateKeySealed: this.secretBox.seal(pair.privateKey),
      publishedAt: now,
      activeFrom,
      created: now,
    };
  }

  /** Every key, generating the first when there is none. */
  private async all(now: Date): Promise<PlatformKey[]> {
    const keys = await this.keys.list();
    return keys.length > 0 ? keys : this.keys.insertFirst(this.generate(now, now));
  }

  /** The key deliveries are signed with now. */
  async signingKey(): Promise<SigningPlatformKey> {
    const now = this.clock.now();
    const keys = await this.all(now);
    const key = activePlatformKey(keys, now) ?? keys[0];
    if (!key) throw new Error('No platform key');
    return { id: key.id, privateKey: this.secretBox.open(key.privateKeySealed) };
  }

  /** Published keys, oldest first (no private material). */
  async published(): Promise<PlatformKey[]> {
    const now = this.clock.now();
    return (await this.all(now)).filter((key) => key.publishedAt.getTime() <= now.getTime());
  }

  /** Publishes a new key now; it signs from now + the activation delay. */
  async rotate(): Promise<PlatformKey> {
    const now = this.clock.now();
    await this.all(now);
    const key = this.generate(now, new Date(now.getTime() + this.options.activationSeconds * 1000));
    await this.keys.insert(key);
    return key;
  }
}
