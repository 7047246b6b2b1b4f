import type { Server } from '@hapi/hapi';
import { CoreError } from '@payments/core';

export const SESSION_COOKIE = 'dashboard_session';

export interface SessionAuthOptions {
  /** True when the public base URL is https: the cookie is then Secure. */
  readonly secureCookie: boolean;
}

/**
 * The `dashboard-session` auth scheme: the `dashboard_session` cookie, nothing else (an API key
 * is no credential here). TODO(issue 4, auth slice): look the session up and end it when expired
 * or when its user is disabled.
 */
export function registerSessionAuth(server: Server, _options: SessionAuthOptions): void {
  server.auth.scheme('dashboard-session', () => ({
    authenticate: async () => {
      throw new CoreError('authentication_required', 'authentication', 'Sign in to the dashboard first.');
    },
  }));
  server.auth.strategy('dashboard-session', 'dashboard-session');
}
