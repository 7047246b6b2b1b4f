import type { Request } from '@hapi/hapi';
import { CoreError, type Merchant, type User } from '@payments/core';

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
