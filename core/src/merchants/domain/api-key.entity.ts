import type { Mode } from '../../common';

/** Length of the stored, listable prefix of a key: `sk_test_` plus eight characters. */
export const API_KEY_PREFIX_LENGTH = 16;

/** What is stored of a key: its prefix and a SHA-256 digest, never the secret. */
export interface ApiKey {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly prefix: string;
  readonly secretDigest: string;
  readonly name?: string;
  readonly created: Date;
  readonly revokedAt?: Date;
}

export function apiKeyPrefixFor(mode: Mode): string {
  return mode === 'live' ? 'sk_live_' : 'sk_test_';
}

/** The mode a presented key claims, or undefined when it is not shaped like one of ours. */
export function modeOfSecret(secret: string): Mode | undefined {
  if (!/^sk_(test|live)_[0-9A-Za-z]{24,128}$/.test(secret)) return undefined;
  return secret.startsWith('sk_live_') ? 'live' : 'test';
}
