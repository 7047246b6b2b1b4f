import type { Lifecycle, ReqRefDefaults, Request, ResponseToolkit, RouteOptions, Server } from '@hapi/hapi';
import type { ApiKeyPermission, DashboardAction, Recovery } from '@payments/core';
import type Joi from 'joi';
import type { DashboardOperationInfo } from '../openapi/build-dashboard-openapi';
import type { OperationInfo } from '../openapi/build-openapi';
import type { Key } from '../modules/wiring';
import type { ValueOf } from './typed-schema';
import { validating } from './validation';

declare module '@hapi/hapi' {
  /** What the route plugins record on each route, for the OpenAPI documents to read back. */
  interface PluginSpecificConfiguration {
    /** A `/v1` route's entry in the merchant document (merchant-v1 and open routes). */
    openapi?: OperationInfo | undefined;
    /** The permission a restricted API key needs for a `/v1` route (a secret key has every one). */
    permission?: ApiKeyPermission | undefined;
    /** The route's joi schemas, which `validating` checks and the OpenAPI documents describe. */
    schemas?: Validation | undefined;
    /** A dashboard route's action (who may call it), its entry in the dashboard document, and whether it runs once per Idempotency-Key. */
    dashboard?: { readonly action: DashboardAction | 'open'; readonly openapi: DashboardOperationInfo; readonly idempotent?: boolean };
  }
}

/** The app container's `get`. */
export type Resolve = <T>(key: Key<T>) => T;

/** What a route needs, by name: use cases by their class, ports by their core token. */
type Uses = Readonly<Record<string, Key<unknown>>>;

/** The use cases a route named, resolved. */
export type Resolved<U> = { readonly [K in keyof U]: U[K] extends Key<infer T> ? T : never };

export interface Validation {
  readonly params?: Joi.Schema;
  readonly query?: Joi.Schema;
  readonly payload?: Joi.Schema;
}

type Validated<V, K extends keyof Validation, Otherwise> = V extends { readonly [key in K]: infer S } ? ValueOf<S> : Otherwise;

/** The request a route's handler sees: payload, query and params typed from the route's schemas. */
export type RouteRequest<V> = Request<{
  Payload: Validated<V, 'payload', ReqRefDefaults['Payload']>;
  Query: Validated<V, 'query', ReqRefDefaults['Query']>;
  Params: Validated<V, 'params', ReqRefDefaults['Params']>;
}>;

/**
 * Where a retry of work that calls out between transactions picks up (docs/idempotency.md,
 * "Recovery points"). An object kind: the transaction that makes (or changes) that object binds it
 * to the key, and the handler resumes with it (`recovery.resume`). `channel`: nothing is written
 * before the call, and the channel remembers the key with what it was told (simulations).
 * `settlement`: the settlement keeps the request's key, and a retry is answered with it.
 */
export type Resumption = 'payment_attempt' | 'refund' | 'dispute' | 'channel' | 'settlement';

/**
 * Runs at most once per Idempotency-Key: storage-only work in one transaction with its answer;
 * work that calls out (a channel, a payout) cannot hold one, and names how a retry resumes it.
 */
export type Idempotency = { readonly transactional: true } | { readonly transactional: false; readonly resumes: Resumption };

/** What an idempotent route's work answers; the wrapper serialises and remembers it. */
export interface RouteAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** An idempotent route's handler, as the idempotency wrapper runs it; `recovery` is its key's recovery point. */
export type IdempotentWork = (request: Request, h: ResponseToolkit, recovery: Recovery) => Promise<RouteAnswer>;

type Handler<V, I> = I extends Idempotency
  ? (request: RouteRequest<V>, h: ResponseToolkit, recovery: Recovery) => Promise<RouteAnswer>
  : (request: RouteRequest<V>, h: ResponseToolkit) => Lifecycle.ReturnValue;

/**
 * Who may call a route, and so which plugin registers it; where that plugin's document lists
 * every route, the route's entry in it (`openapi`) is required.
 */
type Access<I> =
  | {
      /** `Authorization: Bearer sk_…` or `rk_…` (the merchant API, `/v1`). Every POST is idempotent. */
      readonly access: 'api-key';
      /**
       * What a restricted key must hold to call it (docs/api-keys.md): a GET needs `read` of its
       * resource, a POST `write`. Checked with the key, before anything else of the request.
       */
      readonly permission: ApiKeyPermission;
      readonly openapi: OperationInfo;
      readonly idempotent?: I;
    }
  | {
      /** The dashboard session cookie, then the role table for `action`; `open` needs no session (sign-in, the MFA claim). */
      readonly access: 'dashboard';
      readonly action: DashboardAction | 'open';
      readonly openapi: DashboardOperationInfo;
      /**
       * Writes that move money (a refund, a payout) run once per Idempotency-Key, which they then
       * require, so a double click does them once. Such a route takes `?mode=`.
       */
      readonly idempotent?: I;
    }
  | {
      /**
       * `checkout-token`: whoever holds the token in the path. `checkout-open`: the checkout page's files, anyone.
       * `channel-signature`: a channel, by its signature over the raw body. `console-page`: the merchant console's page and
       * files, anyone (it reads and writes only through the dashboard routes, which check the session).
       */
      readonly access: 'checkout-token' | 'checkout-open' | 'channel-signature' | 'console-page';
    }
  | {
      /** Anyone, no credentials. */
      readonly access: 'open';
      readonly openapi?: OperationInfo;
    };

interface RouteCore<U, V> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly validate?: V;
  /** The use cases (and ports) the handler needs, by name: resolved once, when the route is registered. */
  readonly uses?: U;
}

export type RouteDefinition<U, V, I> = RouteCore<U, V> &
  Access<I> & {
    /** Given the resolved `uses`, the handler. */
    readonly handler: (uses: Resolved<U>) => Handler<V, I>;
  };

/** A route as the route lists hold it, whatever its schemas and use cases. */
export type Route = RouteCore<Uses, Validation> &
  Access<Idempotency> & {
    readonly handler: (uses: Record<string, unknown>) => (request: Request, h: ResponseToolkit) => Lifecycle.ReturnValue | Promise<RouteAnswer>;
  };

/** One route: who may call it, its schemas, its use cases, its document entry and its handler. */
export function defineRoute<U extends Uses = Record<never, never>, V extends Validation = Record<never, never>, I extends Idempotency | undefined = undefined>(
  route: RouteDefinition<U, V, I>,
): Route {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Hapi validated the request against `validate` before the handler runs: that makes its types true.
  return route as unknown as Route;
}

type RouteOf<A extends Route['access']> = Route & { readonly access: A };

/**
 * Registers the routes of one kind of access: each route's use cases are resolved here, once,
 * and `options` adds what that access needs (authentication, body rules, extensions). The
 * handler it answers runs behind the route's validation (`validating`).
 */
export function registerRoutes<A extends Route['access']>(
  server: Server,
  routes: readonly Route[],
  resolve: Resolve,
  access: A,
  options: (route: RouteOf<A>, handler: ReturnType<Route['handler']>) => RouteOptions & { readonly handler: Lifecycle.Method },
): void {
  const own = routes.filter((route): route is RouteOf<A> => route.access === access);
  server.route(
    own.map((route) => {
      const uses = Object.fromEntries(Object.entries(route.uses ?? {}).map(([name, token]) => [name, resolve(token)]));
      const given = options(route, handlerOf(route, uses));
      return {
        method: route.method,
        path: route.path,
        options: { ...given, plugins: { ...given.plugins, schemas: route.validate }, handler: validating(route.validate, given.handler) },
      };
    }),
  );
}

/**
 * The route's handler over its resolved `uses`. A storage-only idempotent route's work runs in
 * the transaction of its key's claim (`recovery.transaction`): its use cases are bound to that
 * transaction per request, so that their units of work join it.
 */
function handlerOf(route: Route, uses: Record<string, unknown>): ReturnType<Route['handler']> {
  const handler = route.handler(uses);
  if (!('idempotent' in route) || route.idempotent?.transactional !== true) return handler;
  const work = (request: Request, h: ResponseToolkit, recovery: Recovery): Promise<RouteAnswer> => {
    const bound = recovery.transaction ? route.handler(recovery.transaction.bind(uses)) : handler;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an idempotent route's handler is IdempotentWork (see Handler)
    return (bound as unknown as IdempotentWork)(request, h, recovery);
  };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the idempotency wrapper calls it with the recovery, as every idempotent handler
  return work as unknown as ReturnType<Route['handler']>;
}
