import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { authorize, CoreError, dashboardCaller, isOneOf, MODES, type IdempotencyScope } from '@payments/core';
import { registerRoutes, type IdempotentWork, type Resolve, type Route } from '../../http/define-route';
import { header } from '../../http/headers';
import { checkIdempotencyKey, idempotent, type IdempotentDeps } from '../../http/idempotency';
import { actorOf } from './actor';
import { registerSessionAuth, type SessionAuthOptions } from './session-auth.scheme';

export interface DashboardOptions extends IdempotentDeps {
  readonly sessions: SessionAuthOptions;
  /** The service's own origin (of its public base URL): the only one dashboard writes are taken from. */
  readonly origin: string;
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers the dashboard's. */
  readonly routes: readonly Route[];
}

const WRITES = new Set(['post', 'patch', 'put', 'delete']);

/**
 * A write under `/dashboard` sent from another site's page is refused before anything is read:
 * the session cookie is SameSite=Strict, so a browser keeps it off such requests already, and
 * this makes the rule not rest on the browser alone (nor on the sign-in, which has no cookie). A
 * request without `Origin` is no browser's cross-site request (curl, scripts) and goes on. Taken:
 * the configured public origin, and the origin of the address the request itself was sent to
 * (this server's scheme and the `Host` header), which a page of another site cannot set, so the
 * console works at whatever address a person opened it (127.0.0.1 or localhost in development).
 */
function refuseCrossOriginWrites(origin: string) {
  return (request: Request, h: ResponseToolkit) => {
    const dashboard = request.path === '/dashboard' || request.path.startsWith('/dashboard/');
    if (!dashboard || !WRITES.has(request.method)) return h.continue;
    const from = header(request, 'origin');
    const addressed = `${request.server.info.protocol}://${header(request, 'host') ?? ''}`;
    if (from !== undefined && from !== origin && from !== addressed) {
      throw new CoreError(
        'forbidden',
        'forbidden',
        "This change was sent from another site's page (its Origin is not this service's); dashboard changes are taken only from the dashboard itself.",
      );
    }
    return h.continue;
  };
}

/** A dashboard user's keys are their own, per merchant and mode: never an API caller's nor a teammate's. */
function dashboardKeyOwner(request: Request): Omit<IdempotencyScope, 'key'> {
  const { user } = actorOf(request);
  const mode: unknown = request.query.mode;
  // The route's query schema requires it before the handler runs; this keeps the type honest.
  if (typeof mode !== 'string' || !isOneOf(MODES, mode)) throw new Error(`${request.method} ${request.path} runs once per key, so it must take ?mode=`);
  return { merchantId: user.merchantId, mode, caller: dashboardCaller(user.id) };
}

/**
 * The dashboard surface under `/dashboard/v1`: a cookie session (never an API key), the role
 * table on every route, writes only from the service's own origin, bare objects and list
 * envelopes, the common error envelope. Writes that move money run once per Idempotency-Key.
 */
export const dashboardPlugin: Plugin<DashboardOptions> = {
  name: 'payments-dashboard',
  dependencies: ['payments-errors'],
  register(server, options) {
    // onRequest: before the session is looked up or the route's work begins.
    server.ext('onRequest', refuseCrossOriginWrites(options.origin));
    registerSessionAuth(server, options.sessions);
    registerRoutes(server, options.routes, options.resolve, 'dashboard', (route, handler) => {
      const { action } = route;
      if (route.idempotent && (route.method !== 'POST' || action === 'open'))
        throw new Error(`${route.method} ${route.path}: only a signed-in POST runs once per key`);
      return {
        auth: action === 'open' ? false : 'dashboard-session',
        plugins: { dashboard: { action, openapi: route.openapi, idempotent: route.idempotent !== undefined } },
        // Right after authentication, before validation: a role without the right is 403 whatever
        // it sent, and learns nothing about the body a route expects; no handler checks roles itself.
        // Then the Idempotency-Key of a route that needs one, as on /v1.
        ext:
          action === 'open'
            ? {}
            : {
                onPostAuth: {
                  method: (request: Request, h: ResponseToolkit) => {
                    authorize(actorOf(request).user.role, action);
                    if (route.idempotent) checkIdempotencyKey(request, `${route.method} ${route.path}`);
                    return h.continue;
                  },
                },
              },
        // Bodies are JSON; a malformed cookie header is ignored rather than refused.
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : { allow: 'application/json' },
        state: { parse: true, failAction: 'ignore' },
        // defineRoute has an idempotent route's handler answer a RouteAnswer.
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- defineRoute's types make an idempotent route's handler an IdempotentWork
        handler: route.idempotent ? idempotent(options, handler as IdempotentWork, route.idempotent, dashboardKeyOwner) : handler,
      };
    });
  },
};
