import { createHmac, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Ed25519KeyPair, WebhookCrypto } from '@payments/core';

/** Parsed private keys kept (the active platform key and the one around a rotation). */
const MAX_PARSED_KEYS = 4;

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class CryptoWebhookCrypto implements WebhookCrypto {
  hmacSha256(keyHex: string, message: string): { hex: string; base64: string } {
    const mac = createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message, 'utf8').digest();
    return { hex: mac.toString('hex'), base64: mac.toString('base64') };
  }

  // The platform signs every delivery with one key at a time (two around a rotation): parsing it
  // into a KeyObject per signature cost more than the signature. A few parsed keys are kept.
  private readonly parsedKeys = new Map<string, KeyObject>();

  ed25519Sign(privateKey: string, message: string): string {
    let key = this.parsedKeys.get(privateKey);
    if (key === undefined) {
      const seed = Buffer.from(privateKey, 'base64');
      if (seed.length !== 32) throw new Error('An Ed25519 private key is 32 bytes.');
      key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      if (this.parsedKeys.size >= MAX_PARSED_KEYS) {
        const [oldest] = this.parsedKeys.keys();
        this.parsedKeys.delete(oldest);
      }
      this.parsedKeys.set(privateKey, key);
    }
    return sign(null, Buffer.from(message, 'utf8'), key).toString('base64');
  }

  generateEd25519(): Ed25519KeyPair {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const { x } = publicKey.export({ format: 'jwk' });
    const { d } = privateKey.export({ format: 'jwk' });
    if (x === undefined || d === undefined) throw new Error('An Ed25519 key pair exports x and d.');
    return { publicKey: Buffer.from(x, 'base64url').toString('base64'), privateKey: Buffer.from(d, 'base64url').toString('base64') };
  }
}
