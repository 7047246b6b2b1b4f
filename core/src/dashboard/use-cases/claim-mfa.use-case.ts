import type { AuditRecorder } from './audit';
import type { User } from '../domain/user.entity';
import type { OneTimeCodes } from '../ports/one-time-codes.port';
import type { SecretBox } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { UserRepository } from '../ports/user.repository.port';
import { invalidCredentials, type CredentialsInput, type DashboardCredentials } from './dashboard-credentials';

/** The name authenticator apps show next to the account. */
export const OTP_ISSUER = 'Payments';

export interface ClaimMfaOutput {
  readonly user: User;
  /** The base32 TOTP secret, shown this once; only its sealed form is stored. */
  readonly secret: string;
  /** `otpauth://totp/…` for a QR code. */
  readonly otpauthUrl: string;
}

/**
 * A user without a second factor claims one with email and password. A user that has one already
 * gets the same 401 `invalid_credentials` as a wrong password (and it counts as a failure, so
 * neither the answer nor the throttle tells a right password from a wrong one).
 */
export class ClaimMfa {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly credentials: DashboardCredentials,
    private readonly users: UserRepository,
    private readonly codes: OneTimeCodes,
    private readonly secrets: SecretBox,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(input: CredentialsInput): Promise<ClaimMfaOutput> {
    // A refusal leaves the attempt's throttle slots taken: they are its failure.
    const { user, attempt } = await this.credentials.check(input);
    if (user.mfaSecret !== undefined) throw invalidCredentials();
    const secret = this.codes.generateSecret();
    const sealed = this.secrets.seal(secret);
    const claimed = await this.uow.run(async () => {
      if (!(await this.users.claimMfaSecret(user.merchantId, user.id, sealed))) return false;
      await this.audit.record({ merchantId: user.merchantId, userId: user.id, action: 'mfa.claimed', objectType: 'dashboard_user', objectId: user.id });
      return true;
    });
    // Another claim won the race: this caller gets what an enrolled user gets.
    if (!claimed) throw invalidCredentials();
    await this.credentials.succeeded(attempt);
    const { mfaLastStep: _dropped, ...rest } = user;
    void _dropped;
    return { user: { ...rest, mfaSecret: sealed }, secret, otpauthUrl: this.codes.keyUri(user.email, OTP_ISSUER, secret) };
  }
}
