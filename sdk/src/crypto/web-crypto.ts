import { constantTimeEqual, type CryptoProvider } from './crypto-provider.js';
import { pemBody } from './encoding.js';

/** A CryptoKey, as far as this provider looks at one. */
export interface WebCryptoKey {
  readonly type: string;
}

/**
 * The part of WebCrypto this provider uses, spelled out here so the declarations need neither the
 * DOM library nor Node's types (a CryptoKey is only handed back).
 */
export interface WebCrypto {
  readonly subtle: {
    importKey(
      format: 'raw' | 'pkcs8',
      keyData: Uint8Array,
      algorithm: { name: string; hash?: string },
      extractable: boolean,
      usages: ('sign' | 'verify')[],
    ): Promise<WebCryptoKey>;
    sign(algorithm: string | { name: string }, key: WebCryptoKey, data: Uint8Array): Promise<ArrayBuffer>;
    verify(algorithm: string | { name: string }, key: WebCryptoKey, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
  };
  randomUUID(): string;
}

/**
 * The CryptoProvider of every runtime with WebCrypto (`globalThis.crypto.subtle`): browsers,
 * Deno, Cloudflare Workers and other edge runtimes, Bun, Node 19+. It is asynchronous only, so
 * verify with `webhooks.constructEventAsync`. Pass another `Crypto` (such as Node 18's
 * `require('node:crypto').webcrypto`) where there is no global one.
 */
export class WebCryptoProvider implements CryptoProvider {
  constructor(private readonly webCrypto: WebCrypto | undefined = globalThis.crypto) {}

  async hmacSha256(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
    const subtle = this.subtle();
    const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await subtle.sign('HMAC', hmacKey, message));
  }

  async verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    const subtle = this.subtle();
    const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    return subtle.verify({ name: 'Ed25519' }, key, signature, message);
  }

  async signEd25519(privateKeyPem: string, message: Uint8Array): Promise<Uint8Array> {
    const der = pemBody(privateKeyPem);
    if (!der) throw new TypeError('The Ed25519 private key must be PKCS#8 PEM (-----BEGIN PRIVATE KEY-----).');
    const subtle = this.subtle();
    const key = await subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
    return new Uint8Array(await subtle.sign({ name: 'Ed25519' }, key, message));
  }

  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
    return constantTimeEqual(a, b);
  }

  randomUUID(): string {
    return this.crypto().randomUUID();
  }

  private crypto(): WebCrypto {
    // Checked on use, not at construction: a client that never signs or sends a POST needs no crypto.
    if (!this.webCrypto?.subtle) throw new Error('No WebCrypto (globalThis.crypto.subtle) here: pass a crypto provider to Payments.');
    return this.webCrypto;
  }

  private subtle(): WebCrypto['subtle'] {
    return this.crypto().subtle;
  }
}
