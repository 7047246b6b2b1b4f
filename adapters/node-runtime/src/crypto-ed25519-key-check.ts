import { createPublicKey } from 'node:crypto';
import type { Ed25519KeyCheck } from '@payments/core';

const P = 2n ** 255n - 19n;
const D = mod(-121665n * power(121666n, P - 2n));
const SQRT_MINUS_ONE = power(2n, (P - 1n) / 4n);

function mod(value: bigint): bigint {
  const r = value % P;
  return r >= 0n ? r : r + P;
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
    e >>= 1n;
  }
  return result;
}

/**
 * RFC 8032 §5.1.3 point decoding: true when the 32 bytes encode a point of edwards25519. OpenSSL
 * defers this to verification time, so `createPublicKey` accepts any 32 bytes.
 */
function decodesToPoint(raw: Buffer): boolean {
  const bytes = Buffer.from(raw);
  const sign = bytes[31] >> 7;
  bytes[31] = bytes[31] & 0x7f;
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
  if (y >= P) return false;
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * power(v, 3n) * power(u * power(v, 7n), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 === mod(-u)) x = mod(x * SQRT_MINUS_ONE);
  else if (vx2 !== u) return false;
  return !(x === 0n && sign === 1);
}

/**
 * Whether a raw 32-byte key is an Ed25519 public key: node:crypto (OpenSSL) must accept it as a
 * JWK, and it must decode to a curve point (which OpenSSL leaves to verification time, so without
 * this any 32 bytes would pass and a pasted HMAC secret would be taken for a key).
 */
export class CryptoEd25519KeyCheck implements Ed25519KeyCheck {
  isPublicKey(rawBase64: string): boolean {
    const raw = Buffer.from(rawBase64, 'base64');
    if (raw.length !== 32 || !decodesToPoint(raw)) return false;
    try {
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
      return key.asymmetricKeyType === 'ed25519';
    } catch {
      return false;
    }
  }
}
