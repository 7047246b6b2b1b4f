import type { Merchant, MerchantRepository } from '../../merchants';
import type { Clock, Digest } from '../../common';
import { CoreError } from '../../common';
import { isSessionLive, type DashboardSession } from '../domain/dashboard-session.entity';
import type { User } from '../domain/user.entity';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { UserRepository } from '../ports/user.repository.port';

/** Who a live session belongs to, read fresh on every request (a new role applies at once). */
export interface DashboardSessionActor {
  readonly user: User;
  readonly merchant: Merchant;
  readonly session: DashboardSession;
}

/** 32 bytes, unpadded base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function sessionRequired(): CoreError {
  return new CoreError('authentication_required', 'authentication', 'Sign in to the dashboard first.');
}
export interface AuthenticateDashboardSessionDeps {
  readonly sessions: DashboardSessionRepository;
  readonly users: UserRepository;
  readonly merchants: MerchantRepository;
  readonly digest: Digest;
  readonly clock: Clock;
}

/**
 * The session of a `dashboard_session` cookie. Throws 401 `authentication_required` for a
 * missing or unknown token, a session that ended (sign-out, user disabled, second factor reset)
 * or expired (30 minutes after sign-in), and a user who is disabled now.
 */
export class AuthenticateDashboardSession {
  constructor(private readonly deps: AuthenticateDashboardSessionDeps) {}

  async execute(token: string | undefined): Promise<DashboardSessionActor> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) throw sessionRequired();
    const session = await this.deps.sessions.findByTokenDigest(this.deps.digest.sha256Hex(token));
    if (!session || !isSessionLive(session, this.deps.clock.now())) throw sessionRequired();
    const user = await this.deps.users.findById(session.merchantId, session.userId);
    if (!user || user.status !== 'active') throw sessionRequired();
    const merchant = await this.deps.merchants.findById(session.merchantId);
    if (!merchant) throw sessionRequired();
    return { user, merchant, session };
  }
}
