import type { Mode } from '../../common';
import { token } from '../../common';

/**
 * One merchant's credentials at a provider's channel in one mode (a Stripe secret key and webhook
 * secret, an Omise key pair), as the operator set them. `secrets` is sealed at rest and never
 * leaves the process: not in a response, a log or an error.
 */
export interface ChannelCredentials {
  readonly channel: string;
  readonly merchantId: string;
  readonly mode: Mode;
  /** The provider's named settings (`secret_key`, `webhook_secret` …), all treated as secret. */
  readonly secrets: Readonly<Record<string, string>>;
  readonly updatedAt: Date;
}

/**
 * The store of channel credentials per merchant and mode (one set per channel, merchant and mode).
 * Channel adapters read it on each call, so an operator's change reaches every process at once.
 */
export interface ChannelCredentialStore {
  find(channel: string, merchantId: string, mode: Mode): Promise<ChannelCredentials | undefined>;
  /** Every merchant's credentials at `channel` in `mode`, by merchant id. */
  list(channel: string, mode: Mode): Promise<ChannelCredentials[]>;
  /** Sets (or replaces) one merchant's credentials. */
  put(credentials: ChannelCredentials): Promise<void>;
  /** Removes them; false when there were none. */
  remove(channel: string, merchantId: string, mode: Mode): Promise<boolean>;
}
export const ChannelCredentialStore = token<ChannelCredentialStore>('ChannelCredentialStore');

/** `sk_test_…4242`: enough of a secret to tell which one is set, never enough to use it. */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]+_(test|live)_/.exec(secret)?.[0] ?? /^[a-z]+_/.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.length - prefix.length > 8 ? secret.slice(-4) : ''}`;
}
