import type { Lifecycle, Request, ResponseToolkit, RouteOptionsValidate, ServerRoute } from '@hapi/hapi';
import { authorize, CoreError, type DashboardAction, type Merchant, type User } from '@payments/core';
import Joi from 'joi';

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

export function actorOf(request: Request): DashboardActor {
  const actor = request.auth.credentials?.dashboard;
  if (!actor) throw new CoreError('authentication_required', 'authentication', 'Sign in to the dashboard first.');
  return actor;
}

export interface DashboardRouteSpec {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The action the table authorises, or `open` for the two routes that need no session. */
  readonly action: DashboardAction | 'open';
  readonly validate?: RouteOptionsValidate;
  readonly handler: (request: Request, h: ResponseToolkit) => Lifecycle.ReturnValue;
}

/**
 * A dashboard route: cookie session required (unless open), then the role table decides before
 * validation and the handler run, so no handler checks roles itself.
 */
export function dashboardRoute(spec: DashboardRouteSpec): ServerRoute {
  const open = spec.action === 'open';
  return {
    method: spec.method,
    path: spec.path,
    options: {
      auth: open ? false : 'dashboard-session',
      plugins: { dashboard: { action: spec.action } },
      // Right after authentication, before validation: a role without the right is 403 whatever
      // it sent, and learns nothing about the body a route expects.
      ext: open
        ? {}
        : {
            onPostAuth: {
              method: (request: Request, h: ResponseToolkit) => {
                authorize(actorOf(request).user.role, spec.action as DashboardAction);
                return h.continue;
              },
            },
          },
      validate: spec.validate,
      handler: spec.handler,
    },
  };
}

/** A one-time code is a string; anything else is no code (403 `mfa_code_invalid`, like a wrong one). */
export const codeOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `?mode=test|live` on the routes marked *mode*: each mode has its own destinations and endpoints. */
export const modeQuery = Joi.object({ mode: Joi.string().valid('test', 'live').required() });
