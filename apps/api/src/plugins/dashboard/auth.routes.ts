import type { ServerRoute } from '@hapi/hapi';

/** The auth slice: session, MFA claim, users (filled by the auth slice of issue 4). */
export interface AuthRoutesDeps {}

export function authRoutes(_deps: AuthRoutesDeps): ServerRoute[] {
  return [];
}
