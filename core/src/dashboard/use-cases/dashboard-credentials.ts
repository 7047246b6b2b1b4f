import type { RandomSource } from '../../common';
import { base64url, CoreError } from '../../common';
import type { User } from '../domain/user.entity';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { UserRepository } from '../ports/user.repository.port';
import { normalizeEmail, type SignInAttempt, type SignInThrottle } from './sign-in-throttle';

/** The one answer to every refused sign-in or MFA claim, whatever the reason. */
export function invalidCredentials(): CoreError {
  return new CoreError('invalid_credentials', 'authentication', 'The email, password or one-time code is not right.');
}

/** What the caller typed, and where from (for the per-IP throttle). */
export interface CredentialsInput {
  readonly email: string;
  readonly password: string;
  readonly ip: string;
}
export interface DashboardCredentialsDeps {
  readonly users: UserRepository;
  readonly passwords: PasswordHasher;
  readonly random: RandomSource;
  readonly throttle: SignInThrottle;
}

/**
 * Email and password of an open dashboard route (sign-in, MFA claim). Takes about as long for an
 * unknown email as for a known one (the password is checked against a dummy hash made by the same
 * hasher), so neither the answer nor its timing says which emails have an account.
 */
export class DashboardCredentials {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly deps: DashboardCredentialsDeps) {}

  /**
   * The active user these credentials belong to, and the attempt's throttle slots (each counts as
   * a failure until `succeeded`). Throws 429 `rate_limited` before looking at the password when
   * the email or IP is at its limit (the slot is taken atomically, so parallel guesses cannot all
   * pass), and the one 401 `invalid_credentials` for an unknown email, a wrong password or a
   * disabled user.
   */
  async check(input: CredentialsInput): Promise<{ user: User; attempt: SignInAttempt }> {
    const attempt = await this.deps.throttle.begin(input.email, input.ip);
    let user: User | undefined;
    let matches: boolean;
    try {
      user = await this.deps.users.findByEmail(normalizeEmail(input.email));
      matches = await this.deps.passwords.verify(input.password, user?.passwordHash ?? (await this.dummy()));
    } catch (error) {
      // No guess was checked (a busy hasher queue, a database outage): nothing to count.
      await this.deps.throttle.abandoned(attempt);
      throw error;
    }
    if (!user || !matches || user.status !== 'active') throw invalidCredentials();
    return { user, attempt };
  }

  /** The attempt succeeded: its slots are given back and the email's failures forgotten. */
  succeeded(attempt: SignInAttempt): Promise<void> {
    return this.deps.throttle.succeeded(attempt);
  }

  /** Made once, by the configured hasher, so verifying against it costs what a real check costs. */
  warmUp(): Promise<string> {
    return this.dummy();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.deps.passwords.hash(base64url(this.deps.random.bytes(24)));
    return this.dummyHash;
  }
}
