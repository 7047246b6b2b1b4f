import { token } from './token';
/**
 * Encrypts secrets we must be able to read back (TOTP secrets, webhook signing keys) under the
 * master key. What is stored is only ever the sealed form.
 */
export interface SecretBox {
  /** Encrypts and authenticates `plaintext`; every call uses a fresh nonce. */
  seal(plaintext: string): string;
  /** Decrypts a sealed value; throws when it was altered or sealed under another key. */
  open(sealed: string): string;
}
export const SecretBox = token<SecretBox>('SecretBox');
