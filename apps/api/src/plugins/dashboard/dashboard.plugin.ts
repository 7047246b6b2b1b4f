import type { Plugin, ServerRoute } from '@hapi/hapi';
import { registerSessionAuth, type SessionAuthOptions } from './session-auth.scheme';

export interface DashboardOptions {
  readonly sessions: SessionAuthOptions;
  readonly routes: readonly ServerRoute[];
}

/**
 * The dashboard surface under `/dashboard/v1`: a cookie session (never an API key), the role
 * table on every route, bare objects and list envelopes, the common error envelope.
 */
export const dashboardPlugin: Plugin<DashboardOptions> = {
  name: 'payments-dashboard',
  dependencies: ['payments-errors'],
  register(server, options) {
    registerSessionAuth(server, options.sessions);
    server.route(
      options.routes.map((route) => ({
        ...route,
        options: {
          ...(route.options as object),
          // Bodies are JSON; a malformed cookie header is ignored rather than refused.
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : { allow: 'application/json' },
          state: { parse: true, failAction: 'ignore' },
        },
      })),
    );
  },
};
