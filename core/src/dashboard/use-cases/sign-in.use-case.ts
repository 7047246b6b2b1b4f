import type { AuditRecorder } from './audit';
import { DASHBOARD_SESSION_TTL_MS, type DashboardSession } from '../domain/dashboard-session.entity';
import { newId } from '../../shared';
import { base64url } from '../../shared';
import type { User } from '../domain/user.entity';
import { isCoreError } from '../../shared';
import type { Clock } from '../../shared';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { Digest } from '../../shared';
import type { RandomSource } from '../../shared';
import type { UnitOfWork } from '../../shared';
import type { VerifyOneTimeCode } from './verify-one-time-code.use-case';
import { invalidCredentials, type CredentialsInput, type DashboardCredentials } from './dashboard-credentials';

export interface SignInInput extends CredentialsInput {
  readonly code: string;
}

export interface SignInOutput {
  readonly user: User;
  readonly session: DashboardSession;
  /** 32 random bytes, base64url: the cookie value. Only its digest is stored. */
  readonly token: string;
}

/**
 * Dashboard sign-in: email, password and a one-time code. Every refusal is the same 401
 * `invalid_credentials` (unknown email, wrong password, disabled user, no second factor claimed
 * yet, wrong or reused code) and counts towards the throttle; a throttled email or IP is 429.
 */
export class SignIn {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly credentials: DashboardCredentials,
    private readonly verifyCode: VerifyOneTimeCode,
    private readonly sessions: DashboardSessionRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly digest: Digest,
  ) {}

  async execute(input: SignInInput): Promise<SignInOutput> {
    // A refusal leaves the attempt's throttle slots taken: they are its failure.
    const { user, attempt } = await this.credentials.check(input);
    if (user.mfaSecret === undefined) throw invalidCredentials();
    let verified: User;
    try {
      verified = await this.verifyCode.execute({ merchantId: user.merchantId, userId: user.id, code: input.code });
    } catch (error) {
      if (isCoreError(error) && error.code === 'mfa_code_invalid') throw invalidCredentials();
      throw error;
    }
    await this.credentials.succeeded(attempt);

    const token = base64url(this.random.bytes(32));
    const now = this.clock.now();
    const session: DashboardSession = {
      id: newId(this.random, 'dashboard_session'),
      tokenDigest: this.digest.sha256Hex(token),
      userId: verified.id,
      merchantId: verified.merchantId,
      created: now,
      expiresAt: new Date(now.getTime() + DASHBOARD_SESSION_TTL_MS),
    };
    await this.uow.run(async () => {
      await this.sessions.insert(session);
      await this.audit.record({ merchantId: session.merchantId, userId: session.userId, action: 'session.created', objectType: 'dashboard_session', objectId: session.id });
    });
    return { user: verified, session, token };
  }
}
