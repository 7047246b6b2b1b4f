import { createHash, timingSafeEqual } from 'node:crypto';
import type { Digest } from '@payments/core';

export class CryptoDigest implements Digest {
  sha256Hex(value: string): string {
    return createHash('sha256').update(value, 'utf8').digest('hex');
  }

  equal(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    // Digests of one algorithm have one length, so the early return leaks nothing secret.
    return left.length === right.length && timingSafeEqual(left, right);
  }
}
