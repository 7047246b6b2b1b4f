import type { Request } from '@hapi/hapi';
import { CoreError, type AccountScope, type Merchant, type Mode, type User } from '@payments/core';

/** Who is at the keyboard: the signed-in user, their merchant, and the session. */
export interface DashboardActor {
  readonly user: User;
  readonly merchant: Merchant;
  readonly sessionId: string;
}

declare module '@hapi/hapi' {
  interface AuthCredentials {
    dashboard?: DashboardActor;
  }
}

/** Who is calling a signed-in dashboard route: the dashboard-session scheme sets it. */
export function actorOf(request: Pick<Request, 'auth'>): DashboardActor {
  const actor = request.auth.credentials?.dashboard;
  if (!actor) throw new CoreError('authentication_required', 'authentication', 'Sign in to the dashboard first.');
  return actor;
}

/** The signed-in user's merchant in `mode` (the route's `?mode=`): all a per-mode route reads or changes. */
export function scopeIn(request: Pick<Request, 'auth'>, mode: Mode): AccountScope {
  return { merchantId: actorOf(request).user.merchantId, mode };
}
