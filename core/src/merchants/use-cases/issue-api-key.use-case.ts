import type { Clock, Digest, Mode, RandomSource } from '../../common';
import { CoreError, newId, notFound, randomString } from '../../common';
import { API_KEY_PREFIX_LENGTH, apiKeyPrefixFor, type ApiKey, type ApiKeyPermissions } from '../domain/api-key.entity';
import type { ApiKeyRepository } from '../ports/api-key.repository.port';
import type { MerchantRepository } from '../ports/merchant.repository.port';

const SECRET_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface IssuedApiKey {
  readonly key: ApiKey;
  /** The plaintext key: shown once, never stored. */
  readonly secret: string;
}
export interface IssueApiKeyDeps {
  readonly keys: ApiKeyRepository;
  readonly merchants: MerchantRepository;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly digest: Digest;
}

export class IssueApiKey {
  constructor(private readonly deps: IssueApiKeyDeps) {}

  /**
   * Mints a key (`sk_test_` or `sk_live_` and 32 base62 characters, about 190 bits; `rk_test_` or
   * `rk_live_` for a restricted key, one given `permissions`). Only its 16-character prefix, SHA-256
   * digest and permissions are stored. A live key before review is 403 `live_not_enabled`.
   */
  async execute(input: { merchantId: string; mode: Mode; name?: string; permissions?: ApiKeyPermissions }): Promise<IssuedApiKey> {
    const merchant = await this.deps.merchants.findById(input.merchantId);
    if (!merchant) throw notFound('merchant', input.merchantId);
    if (input.mode === 'live' && !merchant.liveEnabled) {
      throw new CoreError('live_not_enabled', 'forbidden', 'Live keys can be minted once review opens live mode.');
    }
    const secret = apiKeyPrefixFor(input.mode, input.permissions === undefined ? 'secret' : 'restricted') + randomString(this.deps.random, SECRET_ALPHABET, 32);
    const key: ApiKey = {
      id: newId(this.deps.random, 'api_key'),
      merchantId: merchant.id,
      mode: input.mode,
      prefix: secret.slice(0, API_KEY_PREFIX_LENGTH),
      secretDigest: this.deps.digest.sha256Hex(secret),
      name: input.name,
      ...(input.permissions === undefined ? {} : { permissions: { ...input.permissions } }),
      created: this.deps.clock.now(),
    };
    await this.deps.keys.insert(key);
    return { key, secret };
  }
}
