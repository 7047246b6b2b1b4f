import type { SecretBox, UnitOfWork } from '../../common';
import type { User } from '../domain/user.entity';
import type { OneTimeCodes } from '../ports/one-time-codes.port';
import type { UserRepository } from '../ports/user.repository.port';
import type { AuditRecorder } from './audit';
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
export interface ClaimMfaDeps {
  readonly uow: UnitOfWork;
  readonly credentials: DashboardCredentials;
  readonly users: UserRepository;
  readonly codes: OneTimeCodes;
  readonly secrets: SecretBox;
  readonly audit: AuditRecorder;
}

/**
 * A user without a second factor claims one with email and password. A user that has one already
 * gets the same 401 `invalid_credentials` as a wrong password (and it counts as a failure, so
 * neither the answer nor the throttle tells a right password from a wrong one).
 */
export class ClaimMfa {
  constructor(private readonly deps: ClaimMfaDeps) {}

  async execute(input: CredentialsInput): Promise<ClaimMfaOutput> {
    // A refusal leaves the attempt's throttle slots taken: they are its failure.
    const { user, attempt } = await this.deps.credentials.check(input);
    if (user.mfaSecret !== undefined) throw invalidCredentials();
    const secret = this.deps.codes.generateSecret();
    const sealed = this.deps.secrets.seal(secret);
    const claimed = await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      if (!(await self.deps.users.claimMfaSecret(user.merchantId, user.id, sealed))) return false;
      await self.deps.audit.record({ merchantId: user.merchantId, userId: user.id, action: 'mfa.claimed', objectType: 'dashboard_user', objectId: user.id });
      return true;
    });
    // Another claim won the race: this caller gets what an enrolled user gets.
    if (!claimed) throw invalidCredentials();
    await this.deps.credentials.succeeded(attempt);
    const { mfaLastStep: _dropped, ...rest } = user;
    void _dropped;
    return { user: { ...rest, mfaSecret: sealed }, secret, otpauthUrl: this.deps.codes.keyUri(user.email, OTP_ISSUER, secret) };
  }
}
