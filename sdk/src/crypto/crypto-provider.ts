/**
 * The few cryptographic operations the SDK needs, behind one small interface so the rest of the
 * SDK imports nothing runtime-specific. Two implementations ship: `WebCryptoProvider`
 * (`crypto.subtle`: browsers, Deno, Cloudflare Workers and other edge runtimes, Node 19+) and
 * `NodeCryptoProvider` (`node:crypto`, the default of the Node build). Keys and signatures are bytes.
 */
export interface CryptoProvider {
  /** HMAC-SHA256 of `message` under `key`. */
  hmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array>;
  /** Whether `signature` is an Ed25519 signature of `message` by the raw 32-byte `publicKey`. */
  verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
  /** An Ed25519 signature of `message` by a PKCS#8 PEM private key; for test headers. */
  signEd25519(privateKeyPem: string, message: Uint8Array): Promise<Uint8Array>;
  /** Whether two byte strings are equal, in time that does not depend on where they differ. */
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
  /** A random UUID (v4), for Idempotency-Keys. */
  randomUUID(): string;
}

/**
 * A provider that can also answer at once, which `webhooks.constructEvent` and
 * `generateTestHeader` need (WebCrypto is asynchronous only, so only `node:crypto` offers this).
 */
export interface SyncCryptoProvider extends CryptoProvider {
  hmacSha256Sync(key: Uint8Array, message: Uint8Array): Uint8Array;
  verifyEd25519Sync(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  signEd25519Sync(privateKeyPem: string, message: Uint8Array): Uint8Array;
}

export function isSyncCryptoProvider(provider: CryptoProvider): provider is SyncCryptoProvider {
  const candidate: Partial<SyncCryptoProvider> = provider;
  return typeof candidate.hmacSha256Sync === 'function' && typeof candidate.verifyEd25519Sync === 'function' && typeof candidate.signEd25519Sync === 'function';
}

/**
 * Byte equality that looks at every byte whatever the first difference, so the time taken tells
 * an attacker nothing about how much of a forged signature was right. Only the length, which is
 * public (a signature's size is fixed), ends it early.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
