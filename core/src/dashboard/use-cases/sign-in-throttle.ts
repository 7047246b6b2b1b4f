import type { Clock, Digest } from '../../common';
import { CoreError } from '../../common';
import type { FailureCounter, FailureWindow } from '../ports/failure-counter.port';

/** 10 failed sign-ins per 15 minutes per email and per IP, then 429; the same for wrong step-up codes per user. */
export const SIGN_IN_FAILURE_WINDOW: FailureWindow = { limit: 10, windowMs: 15 * 60 * 1000 };

/** A slot taken in one key's failure count, to give back if the attempt succeeds. */
export interface FailureSlot {
  readonly key: string;
  readonly slot: string;
}

/**
 * Takes a slot in the failure count of every key, in one atomic step per key, before the guess is
 * checked: each slot counts as a failure until released. When any key is at its limit, the slots
 * already taken are given back and the attempt is 429 `rate_limited` with the wait, so a burst of
 * parallel guesses gets no more checks than the limit, and a refused attempt counts nothing.
 */
export async function reserveFailureSlots(
  counter: FailureCounter,
  keys: readonly string[],
  now: Date,
  window: FailureWindow,
  message: string,
): Promise<FailureSlot[]> {
  const settled = await Promise.allSettled(keys.map(async (key) => ({ key, reservation: await counter.reserve(key, now, window) })));
  const reservations = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const taken = reservations.flatMap(({ key, reservation }) => (reservation.slot === undefined ? [] : [{ key, slot: reservation.slot }]));
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  // A slot taken while another key's reservation failed (the store went away) is given back, so
  // the attempt that never ran counts nothing.
  if (failed) {
    await releaseFailureSlots(counter, taken).catch(() => undefined);
    throw failed.reason;
  }
  if (taken.length === keys.length) return taken;
  await releaseFailureSlots(counter, taken);
  const blockedForMs = Math.max(1, ...reservations.map(({ reservation }) => reservation.blockedForMs));
  throw new CoreError('rate_limited', 'rate_limited', message, { retryAfterSeconds: Math.max(1, Math.ceil(blockedForMs / 1000)) });
}

export async function releaseFailureSlots(counter: FailureCounter, slots: readonly FailureSlot[]): Promise<void> {
  await Promise.all(slots.map(({ key, slot }) => counter.release(key, slot)));
}

/** One sign-in or MFA claim in progress: its slots in the email's and the IP's failure counts. */
export interface SignInAttempt {
  readonly email: string;
  readonly slots: readonly FailureSlot[];
}
export interface SignInThrottleDeps {
  readonly counter: FailureCounter;
  readonly clock: Clock;
  readonly digest: Digest;
  /** How many failures per window; the sign-in window unless a test sets its own. */
  readonly window?: FailureWindow;
}

/**
 * Throttles password guessing on the two open dashboard routes that check a password (sign-in
 * and the MFA claim), per email and per client IP. The slot is taken before the password is
 * looked at, so a throttled request learns nothing, and every attempt counts as a failure unless
 * it succeeds, whatever its cause, so the counter reveals nothing either.
 */
export class SignInThrottle {
  constructor(private readonly deps: SignInThrottleDeps) {}

  /** Takes the attempt's slots; throws 429 `rate_limited` (with a retry delay) when the email or the IP is at the limit. */
  async begin(email: string, ip: string): Promise<SignInAttempt> {
    const slots = await reserveFailureSlots(
      this.deps.counter,
      [this.emailKey(email), this.ipKey(ip)],
      this.deps.clock.now(),
      this.deps.window ?? SIGN_IN_FAILURE_WINDOW,
      'Too many failed sign-in attempts; try again later.',
    );
    return { email, slots };
  }

  /**
   * A success forgets the email's failures and gives the IP its slot back; the IP's earlier
   * failures stay, so one good account cannot launder guesses at others.
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await releaseFailureSlots(this.deps.counter, attempt.slots);
    await this.deps.counter.clear(this.emailKey(attempt.email));
  }

  /** The attempt could not check its guess (the database or the password hasher was unavailable): it gives its slots back. */
  async abandoned(attempt: SignInAttempt): Promise<void> {
    await releaseFailureSlots(this.deps.counter, attempt.slots);
  }

  // Digested so the shared backend holds no email addresses, and keys have one length.
  private emailKey(email: string): string {
    return `sign_in:email:${this.deps.digest.sha256Hex(normalizeEmail(email))}`;
  }

  private ipKey(ip: string): string {
    return `sign_in:ip:${ip}`;
  }
}

/** Emails are stored lower-case and trimmed; sign-in compares them the same way. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
