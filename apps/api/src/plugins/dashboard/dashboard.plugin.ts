import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { authorize } from '@payments/core';
import { registerRoutes, type Resolve, type Route } from '../../http/define-route';
import { actorOf } from './actor';
import { registerSessionAuth, type SessionAuthOptions } from './session-auth.scheme';

export interface DashboardOptions {
  readonly sessions: SessionAuthOptions;
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers the dashboard's. */
  readonly routes: readonly Route[];
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
    registerRoutes(server, options.routes, options.resolve, 'dashboard', (route, handler) => {
      const { action } = route;
      return {
        auth: action === 'open' ? false : 'dashboard-session',
        plugins: { dashboard: { action, openapi: route.openapi } },
        // Right after authentication, before validation: a role without the right is 403 whatever
        // it sent, and learns nothing about the body a route expects; no handler checks roles itself.
        ext:
          action === 'open'
            ? {}
            : {
                onPostAuth: {
                  method: (request: Request, h: ResponseToolkit) => {
                    authorize(actorOf(request).user.role, action);
                    return h.continue;
                  },
                },
              },
        // Bodies are JSON; a malformed cookie header is ignored rather than refused.
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : { allow: 'application/json' },
        state: { parse: true, failAction: 'ignore' },
        handler,
      };
    });
  },
};
