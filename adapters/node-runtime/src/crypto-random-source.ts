import { randomBytes } from 'node:crypto';
import type { RandomSource } from '@payments/core';

export class CryptoRandomSource implements RandomSource {
  bytes(length: number): Uint8Array {
    return randomBytes(length);
  }
}
