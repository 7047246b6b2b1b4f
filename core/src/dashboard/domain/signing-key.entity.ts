import { invalidParameter } from '../../common';

/**
 * A merchant's Ed25519 public key (the merchant keeps the private half). Stored as the standard
 * base64 of the raw 32-byte key, as it was registered.
 */
export interface SigningKey {
  readonly id: string;
  readonly merchantId: string;
  readonly algorithm: 'ed25519';
  readonly publicKey: string;
  readonly name?: string;
  readonly created: Date;
}

export const SIGNING_KEY_NAME_LENGTH = 100;

/**
 * Canonical standard base64 of exactly 32 bytes: 43 characters and one `=`, the last character
 * before the padding carrying no stray bits (so one key has one spelling).
 */
const RAW_ED25519_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** Throws 400 naming `public_key` unless `value` is a raw 32-byte key in standard base64. */
export function assertRawEd25519Base64(value: string): void {
  if (!RAW_ED25519_BASE64.test(value)) {
    throw invalidParameter('public_key', 'public_key must be a raw 32-byte Ed25519 public key in standard base64 (44 characters).');
  }
}
