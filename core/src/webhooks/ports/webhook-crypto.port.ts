import { token } from '../../common';
/** An Ed25519 key pair as standard base64 of the raw 32-byte public key and 32-byte private seed. */
export interface Ed25519KeyPair {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** The primitives webhook signing needs, from the platform's crypto library (core has none). */
export interface WebhookCrypto {
  /** HMAC-SHA256 of the UTF-8 `message` keyed by the bytes `keyHex` encodes, as hex and standard base64. */
  hmacSha256(keyHex: string, message: string): { readonly hex: string; readonly base64: string };
  /** Ed25519 signature (standard base64) of the UTF-8 `message` under the raw private seed. */
  ed25519Sign(privateKey: string, message: string): string;
  /** A fresh key pair from the CSPRNG. */
  generateEd25519(): Ed25519KeyPair;
}
export const WebhookCrypto = token<WebhookCrypto>('WebhookCrypto');
