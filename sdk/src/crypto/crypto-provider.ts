/**
 * The few cryptographic operations the SDK needs, behind one small interface so the rest of the
 * SDK imports nothing Node-only (`node-crypto.ts` is the one implementation shipped).
 * Byte strings are Uint8Array; keys and signatures travel as the API spells them (hex, base64).
 */
export interface CryptoProvider {
  /** HMAC-SHA256 of `message` under `key`, hex encoded. */
  hmacSha256Hex(key: Uint8Array, message: Uint8Array): string;
  /** Whether two strings are equal, in time that does not depend on where they differ. */
  timingSafeEqual(a: string, b: string): boolean;
  /** Whether `signatureBase64` is an Ed25519 signature of `message` by the raw 32-byte key `publicKeyBase64`. */
  verifyEd25519(publicKeyBase64: string, message: Uint8Array, signatureBase64: string): boolean;
  /** An Ed25519 signature (base64) of `message` by a PKCS#8 PEM private key; for test headers. */
  signEd25519(privateKeyPem: string, message: Uint8Array): string;
  /** A random UUID (v4), for Idempotency-Keys. */
  randomUUID(): string;
}
