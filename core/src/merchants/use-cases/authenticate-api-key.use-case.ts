import type { Digest, Mode } from '../../common';
import { CoreError } from '../../common';
import { API_KEY_PREFIX_LENGTH, modeOfSecret, type ApiKeyPermissions } from '../domain/api-key.entity';
import type { Merchant } from '../domain/merchant.entity';
import type { ApiKeyRepository } from '../ports/api-key.repository.port';

/** Who is calling `/v1`: the merchant, the mode the key reaches, and which key. */
export interface ApiCaller {
  readonly merchant: Merchant;
  readonly mode: Mode;
  readonly apiKeyId: string;
  /** A restricted key's permissions; undefined for a secret key, which reaches every route of its mode. */
  readonly permissions?: ApiKeyPermissions;
}

function unauthenticated(message: string): CoreError {
  return new CoreError('authentication_required', 'authentication', message);
}
export interface AuthenticateApiKeyDeps {
  readonly keys: ApiKeyRepository;
  readonly digest: Digest;
}

export class AuthenticateApiKey {
  constructor(private readonly deps: AuthenticateApiKeyDeps) {}

  /**
   * Recognises an API key (secret `sk_…` or restricted `rk_…`) by its prefix and SHA-256 digest (compared in constant time).
   * Throws 401 `authentication_required` for a missing, malformed, unknown or revoked key, and
   * 403 `live_not_enabled` for a live key of a merchant whose review has not opened live mode.
   */
  async execute(secret: string | undefined): Promise<ApiCaller> {
    if (secret === undefined || secret === '') {
      throw unauthenticated('Send your secret API key as `Authorization: Bearer sk_test_…`.');
    }
    const mode = modeOfSecret(secret);
    if (!mode) throw unauthenticated('The API key is not valid.');
    const presented = this.deps.digest.sha256Hex(secret);
    const candidates = await this.deps.keys.findByPrefix(secret.slice(0, API_KEY_PREFIX_LENGTH));
    const found = candidates.find((candidate) => this.deps.digest.equal(candidate.key.secretDigest, presented));
    if (!found || found.key.revokedAt !== undefined || found.key.mode !== mode) throw unauthenticated('The API key is not valid.');
    const { key, merchant } = found;
    if (mode === 'live' && !merchant.liveEnabled) {
      throw new CoreError('live_not_enabled', 'forbidden', 'Live mode is not open for this account yet; use a test key until review opens it.');
    }
    return key.permissions === undefined ? { merchant, mode, apiKeyId: key.id } : { merchant, mode, apiKeyId: key.id, permissions: key.permissions };
  }
}
