import { createHmac, createPrivateKey, createPublicKey, randomUUID, sign, timingSafeEqual, verify } from 'node:crypto';
import type { CryptoProvider } from './crypto-provider.js';

/** DER prefix that turns a raw 32-byte Ed25519 key into an SPKI key Node can load. */
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

/** The CryptoProvider of Node (and of runtimes that offer `node:crypto`). */
export class NodeCryptoProvider implements CryptoProvider {
  hmacSha256Hex(key: Uint8Array, message: Uint8Array): string {
    return createHmac('sha256', key).update(message).digest('hex');
  }

  timingSafeEqual(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    return left.length === right.length && timingSafeEqual(left, right);
  }

  verifyEd25519(publicKeyBase64: string, message: Uint8Array, signatureBase64: string): boolean {
    const raw = Buffer.from(publicKeyBase64, 'base64');
    if (raw.length !== 32) return false;
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    const signature = Buffer.from(signatureBase64, 'base64');
    return signature.length === 64 && verify(null, message, key, signature);
  }

  signEd25519(privateKeyPem: string, message: Uint8Array): string {
    return sign(null, message, createPrivateKey(privateKeyPem)).toString('base64');
  }

  randomUUID(): string {
    return randomUUID();
  }
}
