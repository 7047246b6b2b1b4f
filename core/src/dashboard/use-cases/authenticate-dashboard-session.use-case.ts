import { isSessionLive, type DashboardSession } from '../domain/dashboard-session.entity';
import type { Merchant } from '../../merchants';
import type { User } from '../domain/user.entity';
import { CoreError } from '../../shared';
import type { Clock } from '../../shared';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { Digest } from '../../shared';
import type { MerchantRepository } from '../../merchants';
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

/**
 * The session of a `dashboard_session` cookie. Throws 401 `authentication_required` for a
 * missing or unknown token, a session that ended (sign-out, user disabled, second factor reset)
 * or expired (30 minutes after sign-in), and a user who is disabled now.
 */
export class AuthenticateDashboardSession {
  constructor(
    private readonly sessions: DashboardSessionRepository,
    private readonly users: UserRepository,
    private readonly merchants: MerchantRepository,
    private readonly digest: Digest,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<DashboardSessionActor> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) throw sessionRequired();
    const session = await this.sessions.findByTokenDigest(this.digest.sha256Hex(token));
    if (!session || !isSessionLive(session, this.clock.now())) throw sessionRequired();
    const user = await this.users.findById(session.merchantId, session.userId);
    if (!user || user.status !== 'active') throw sessionRequired();
    const merchant = await this.merchants.findById(session.merchantId);
    if (!merchant) throw sessionRequired();
    return { user, merchant, session };
  }
}
