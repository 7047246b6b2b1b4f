import { token } from '../../common';
/** A memory-hard password hash whose stored form names its own parameters. */
export interface PasswordHasher {
  /** A new salted hash of `password`, including algorithm and parameters. */
  hash(password: string): Promise<string>;
  /** True when `password` matches `stored`; takes about as long whether it matches or not. */
  verify(password: string, stored: string): Promise<boolean>;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');
