import { normalizeEmail, type SignInThrottle } from '../../domain/sign-in-throttle';
import type { User } from '../../domain/user.entity';
import { CoreError } from '../../errors/core-error';
import type { PasswordHasher } from '../../ports/password-hasher.port';
import type { RandomSource } from '../../ports/random-source.port';
import type { UserRepository } from '../../ports/user.repository.port';
import { base64url } from '../../domain/tokens';

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

/**
 * Email and password of an open dashboard route (sign-in, MFA claim). Takes about as long for an
 * unknown email as for a known one (the password is checked against a dummy hash made by the same
 * hasher), so neither the answer nor its timing says which emails have an account.
 */
export class DashboardCredentials {
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly random: RandomSource,
    readonly throttle: SignInThrottle,
  ) {}

  /**
   * The active user these credentials belong to. Throws 429 `rate_limited` before looking at the
   * password when the email or IP is throttled, and 401 `invalid_credentials` (recording a
   * failure) for an unknown email, a wrong password or a disabled user.
   */
  async check(input: CredentialsInput): Promise<User> {
    await this.throttle.assertAllowed(input.email, input.ip);
    const user = await this.users.findByEmail(normalizeEmail(input.email));
    const matches = await this.passwords.verify(input.password, user?.passwordHash ?? (await this.dummy()));
    if (!user || !matches || user.status !== 'active') return this.refuse(input);
    return user;
  }

  /** Records a failure for the email and the IP, then throws the one 401. */
  async refuse(input: CredentialsInput): Promise<never> {
    await this.throttle.recordFailure(input.email, input.ip);
    throw invalidCredentials();
  }

  /** Made once, by the configured hasher, so verifying against it costs what a real check costs. */
  warmUp(): Promise<string> {
    return this.dummy();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.passwords.hash(base64url(this.random.bytes(24)));
    return this.dummyHash;
  }
}
