import type { Clock, Digest, RandomSource, UnitOfWork } from '../../common';
import { base64url, isCoreError, newId } from '../../common';
import { DASHBOARD_SESSION_TTL_MS, type DashboardSession } from '../domain/dashboard-session.entity';
import type { User } from '../domain/user.entity';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { AuditRecorder } from './audit';
import { invalidCredentials, type CredentialsInput, type DashboardCredentials } from './dashboard-credentials';
import type { VerifyOneTimeCode } from './verify-one-time-code.use-case';

export interface SignInInput extends CredentialsInput {
  readonly code: string;
}

export interface SignInOutput {
  readonly user: User;
  readonly session: DashboardSession;
  /** 32 random bytes, base64url: the cookie value. Only its digest is stored. */
  readonly token: string;
}
export interface SignInDeps {
  readonly uow: UnitOfWork;
  readonly credentials: DashboardCredentials;
  readonly verifyCode: VerifyOneTimeCode;
  readonly sessions: DashboardSessionRepository;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly digest: Digest;
}

/**
 * Dashboard sign-in: email, password and a one-time code. Every refusal is the same 401
 * `invalid_credentials` (unknown email, wrong password, disabled user, no second factor claimed
 * yet, wrong or reused code) and counts towards the throttle; a throttled email or IP is 429.
 */
export class SignIn {
  constructor(private readonly deps: SignInDeps) {}

  async execute(input: SignInInput): Promise<SignInOutput> {
    // A refusal leaves the attempt's throttle slots taken: they are its failure.
    const { user, attempt } = await this.deps.credentials.check(input);
    if (user.mfaSecret === undefined) throw invalidCredentials();
    let verified: User;
    try {
      verified = await this.deps.verifyCode.execute({ merchantId: user.merchantId, userId: user.id, code: input.code });
    } catch (error) {
      if (isCoreError(error) && error.code === 'mfa_code_invalid') throw invalidCredentials();
      throw error;
    }
    await this.deps.credentials.succeeded(attempt);

    const token = base64url(this.deps.random.bytes(32));
    const now = this.deps.clock.now();
    const session: DashboardSession = {
      id: newId(this.deps.random, 'dashboard_session'),
      tokenDigest: this.deps.digest.sha256Hex(token),
      userId: verified.id,
      merchantId: verified.merchantId,
      created: now,
      expiresAt: new Date(now.getTime() + DASHBOARD_SESSION_TTL_MS),
    };
    await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.sessions.insert(session);
      await self.deps.audit.record({
        merchantId: session.merchantId,
        userId: session.userId,
        action: 'session.created',
        objectType: 'dashboard_session',
        objectId: session.id,
      });
    });
    return { user: verified, session, token };
  }
}
