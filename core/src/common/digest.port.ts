import { token } from './token';
/** One-way digests of secrets we must recognise but never keep (API keys, checkout tokens). */
export interface Digest {
  /** Lower-case hex SHA-256 of the UTF-8 bytes of `value`. */
  sha256Hex(value: string): string;
  /** Compares two digests in constant time, so timing reveals nothing about a stored one. */
  equal(a: string, b: string): boolean;
}
export const Digest = token<Digest>('Digest');
