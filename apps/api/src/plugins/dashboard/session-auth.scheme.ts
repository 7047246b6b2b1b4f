import type { Server } from '@hapi/hapi';
import { DASHBOARD_SESSION_TTL_MS, type AuthenticateDashboardSession } from '@payments/core';

export const SESSION_COOKIE = 'dashboard_session';

export interface SessionAuthOptions {
  /** True when the public base URL is https: the cookie is then Secure. */
  readonly secureCookie: boolean;
  readonly authenticate: AuthenticateDashboardSession;
}

/**
 * The `dashboard_session` cookie (HttpOnly, SameSite=Strict, Secure on https, Path=/dashboard,
 * 30 minutes, the raw token with no encoding) and the `dashboard-session` auth scheme that reads
 * it and nothing else: an `Authorization` header, API key or not, is no credential here. The
 * session is looked up on every request, so sign-out, a disabled user or a reset second factor
 * take effect at once.
 */
export function registerSessionAuth(server: Server, options: SessionAuthOptions): void {
  server.state(SESSION_COOKIE, {
    ttl: DASHBOARD_SESSION_TTL_MS,
    isSecure: options.secureCookie,
    isHttpOnly: true,
    isSameSite: 'Strict',
    path: '/dashboard',
    encoding: 'none',
    strictHeader: true,
    ignoreErrors: true,
    clearInvalid: false,
  });
  server.auth.scheme('dashboard-session', () => ({
    authenticate: async (request, h) => {
      const value: unknown = (request.state as Record<string, unknown> | null)?.[SESSION_COOKIE];
      // Two cookies of the name (an array) are as good as none.
      const actor = await options.authenticate.execute(typeof value === 'string' ? value : undefined);
      return h.authenticated({ credentials: { dashboard: { user: actor.user, merchant: actor.merchant, sessionId: actor.session.id } } });
    },
  }));
  server.auth.strategy('dashboard-session', 'dashboard-session');
}
