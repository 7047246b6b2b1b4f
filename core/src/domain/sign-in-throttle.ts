import { CoreError } from '../errors/core-error';
import type { Clock } from '../ports/clock.port';
import type { Digest } from '../ports/digest.port';
import type { FailureCounter, FailureWindow } from '../ports/failure-counter.port';

/** DECISIONS: 10 failed sign-ins per 15 minutes per email and per IP, then 429. */
export const SIGN_IN_FAILURE_WINDOW: FailureWindow = { limit: 10, windowMs: 15 * 60 * 1000 };

/**
 * Throttles password guessing on the two open dashboard routes that check a password (sign-in
 * and the MFA claim), per email and per client IP. The check comes before the password is
 * looked at, so a throttled request learns nothing, and every refusal counts, whatever its cause,
 * so the counter reveals nothing either.
 */
export class SignInThrottle {
  constructor(
    private readonly counter: FailureCounter,
    private readonly clock: Clock,
    private readonly digest: Digest,
    private readonly window: FailureWindow = SIGN_IN_FAILURE_WINDOW,
  ) {}

  /** Throws 429 `rate_limited` (with a retry delay) when the email or the IP is over the limit. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const tallies = await Promise.all([this.counter.check(this.emailKey(email), now, this.window), this.counter.check(this.ipKey(ip), now, this.window)]);
    const blockedForMs = Math.max(...tallies.map((tally) => tally.blockedForMs));
    if (blockedForMs > 0) {
      throw new CoreError('rate_limited', 'rate_limited', 'Too many failed sign-in attempts; try again later.', {
        retryAfterSeconds: Math.max(1, Math.ceil(blockedForMs / 1000)),
      });
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const now = this.clock.now();
    await Promise.all([this.counter.record(this.emailKey(email), now, this.window), this.counter.record(this.ipKey(ip), now, this.window)]);
  }

  /** A success forgets the email's failures; the IP's stay, so one good account cannot launder guesses at others. */
  async recordSuccess(email: string): Promise<void> {
    await this.counter.clear(this.emailKey(email));
  }

  // Digested so the shared backend holds no email addresses, and keys have one length.
  private emailKey(email: string): string {
    return `sign_in:email:${this.digest.sha256Hex(normalizeEmail(email))}`;
  }

  private ipKey(ip: string): string {
    return `sign_in:ip:${ip}`;
  }
}

/** Emails are stored lower-case and trimmed; sign-in compares them the same way. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
