import { token } from '../../common';
/** Asks the platform's crypto library about a key, since core has none of its own. */
export interface Ed25519KeyCheck {
  /**
   * True when the crypto library accepts the raw 32-byte key (standard base64, checked for shape
   * by the caller) as an Ed25519 public key.
   */
  isPublicKey(rawBase64: string): boolean;
}
export const Ed25519KeyCheck = token<Ed25519KeyCheck>('Ed25519KeyCheck');
