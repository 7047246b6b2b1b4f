import { randomBytes, randomFillSync } from 'node:crypto';
import type { RandomSource } from '@payments/core';

/** Bytes drawn from the CSPRNG at a time; small requests are served from them. */
const POOL_BYTES = 4096;
/** Requests larger than this go to the CSPRNG directly. */
const POOLED_MAX = 256;

/**
 * node:crypto's CSPRNG. Ids, tokens and request ids ask for a few dozen bytes many times per
 * request, and each randomBytes call is a trip into OpenSSL; small requests are therefore cut
 * from a pool refilled 4 KiB at a time (as node's own randomUUID does). Every byte is handed out
 * once and copied out, so callers never share or see each other's bytes.
 */
export class CryptoRandomSource implements RandomSource {
  private readonly pool = Buffer.allocUnsafeSlow(POOL_BYTES);
  private offset = POOL_BYTES;

  bytes(length: number): Uint8Array {
    if (length > POOLED_MAX) return randomBytes(length);
    if (this.offset + length > POOL_BYTES) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const out = Buffer.from(this.pool.subarray(this.offset, this.offset + length));
    // Spent bytes are wiped so a later heap dump does not hold tokens already handed out.
    this.pool.fill(0, this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
}
