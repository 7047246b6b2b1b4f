import { createHmac, createPrivateKey, createPublicKey, randomUUID, sign, timingSafeEqual, verify } from 'node:crypto';
import type { SyncCryptoProvider } from './crypto-provider.js';

/** DER prefix that turns a raw 32-byte Ed25519 key into an SPKI key Node can load. */
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/**
 * The CryptoProvider of Node (and of runtimes that offer `node:crypto`), the default of the
 * Node build. Being synchronous as well, it also serves `constructEvent` and `generateTestHeader`.
 */
export class NodeCryptoProvider implements SyncCryptoProvider {
  hmacSha256Sync(key: Uint8Array, message: Uint8Array): Uint8Array {
    return new Uint8Array(createHmac('sha256', key).update(message).digest());
  }

  verifyEd25519Sync(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    const spki = new Uint8Array(ED25519_SPKI_PREFIX.length + 32);
    spki.set(ED25519_SPKI_PREFIX, 0);
    spki.set(publicKey, ED25519_SPKI_PREFIX.length);
    return verify(null, message, createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }), signature);
  }

  signEd25519Sync(privateKeyPem: string, message: Uint8Array): Uint8Array {
    return new Uint8Array(sign(null, message, createPrivateKey(privateKeyPem)));
  }

  async hmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
    return this.hmacSha256Sync(key, message);
  }

  async verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    return this.verifyEd25519Sync(publicKey, message, signature);
  }

  async signEd25519(privateKeyPem: string, message: Uint8Array): Promise<Uint8Array> {
    return this.signEd25519Sync(privateKeyPem, message);
  }

  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
    return a.length === b.length && timingSafeEqual(a, b);
  }

  randomUUID(): string {
    return randomUUID();
  }
}
