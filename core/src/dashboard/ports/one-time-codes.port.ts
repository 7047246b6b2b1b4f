import { token } from '../../common';
/** TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps), as authenticator apps implement it. */
export interface OneTimeCodes {
  /** A new random base32 secret. */
  generateSecret(): string;
  /** The `otpauth://totp/…` URL an authenticator app scans. */
  keyUri(accountName: string, issuer: string, secret: string): string;
  /**
   * The time step the code belongs to when it is valid at `now` with one step of drift either
   * way, else undefined. Reuse is the caller's rule: it records the last step used.
   */
  matchingStep(secret: string, code: string, now: Date): number | undefined;
}
export const OneTimeCodes = token<OneTimeCodes>('OneTimeCodes');
