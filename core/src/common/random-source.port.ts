import { token } from './token';
/** Cryptographically secure randomness for ids and tokens. */
export interface RandomSource {
  /** `length` bytes from a CSPRNG; never predictable, never reused. */
  bytes(length: number): Uint8Array;
}
export const RandomSource = token<RandomSource>('RandomSource');
