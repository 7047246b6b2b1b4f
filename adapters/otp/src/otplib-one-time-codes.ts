import type { OneTimeCodes } from '@payments/core';
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

const PERIOD_SECONDS = 30;

/**
 * TOTP through otplib (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps) with one step of drift
 * either way, so a phone whose clock is a little off still signs in. The step a code matched is
 * returned so the caller can refuse a code used before.
 */
export class OtplibOneTimeCodes implements OneTimeCodes {
  generateSecret(): string {
    return generateSecret();
  }

  keyUri(accountName: string, issuer: string, secret: string): string {
    return generateURI({ issuer, label: accountName, secret });
  }

  /** The code an authenticator app shows at `now` (for tests and tools; the service only verifies). */
  codeAt(secret: string, now: Date): string {
    return generateSync({ secret, epoch: Math.floor(now.getTime() / 1000) });
  }

  matchingStep(secret: string, code: string, now: Date): number | undefined {
    if (!/^\d{6}$/.test(code)) return undefined;
    try {
      const result = verifySync({ secret, token: code, epoch: Math.floor(now.getTime() / 1000), epochTolerance: PERIOD_SECONDS });
      // TOTP results carry the matched step; the union type also covers HOTP's.
      return result.valid && 'timeStep' in result ? result.timeStep : undefined;
    } catch {
      return undefined;
    }
  }
}
