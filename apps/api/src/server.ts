import Hapi, { type Server } from '@hapi/hapi';
import {
  AuthenticateApiKey,
  AuthenticateDashboardSession,
  DashboardCredentials,
  Digest,
  RandomSource,
  RateLimiter,
  ResolveApiVersion,
  RunIdempotently,
} from '@payments/core';
import type { Config } from './config';
import { AppConfig, AppLogger, AppMetrics, type AppContainer } from './container';
import type { Resolve } from './http/define-route';
import type { Logger } from './logger';
import { errorsPlugin } from './plugins/errors.plugin';
import { requestLogPlugin } from './plugins/request-log.plugin';
import type { ServiceMetrics } from './metrics';
import { channelCallbacksPlugin } from './plugins/channel-callbacks.plugin';
import { checkoutPlugin } from './plugins/checkout/checkout.plugin';
import { consolePlugin } from './plugins/console.plugin';
import { dashboardPlugin } from './plugins/dashboard/dashboard.plugin';
import { merchantV1Plugin } from './plugins/merchant-v1/merchant-v1.plugin';
import { openPlugin } from './plugins/open.plugin';
import { CAPABILITIES } from './modules';

/** Request bodies over 64 KiB are refused with 413 `request_too_large` before they are parsed. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Builds the Hapi server from the container; `start()` is the caller's choice (tests inject). */
export async function createServer(app: AppContainer): Promise<Server> {
  const config = app.get<Config>(AppConfig);
  // Each plugin resolves its routes' use cases once, as it registers them.
  const resolve: Resolve = (token) => app.get(token);
  const routes = { resolve, routes: CAPABILITIES.flatMap((capability) => capability.routes) };
  const server = Hapi.server({
    port: config.port,
    host: config.host,
    routes: {
      payload: { maxBytes: MAX_BODY_BYTES },
      response: { emptyStatusCode: 204 },
      security: { noSniff: true, xframe: 'deny', hsts: config.baseUrl.startsWith('https:') },
      cache: { otherwise: 'no-store' },
      // A request still unanswered after this (a database that stopped answering holds its
      // queries: the TCP connection stays open and no server-side timeout can fire) is answered
      // 503 with Retry-After; its work goes on and, if it commits, a retry under the same
      // Idempotency-Key replays it.
      ...(config.requestTimeoutMs > 0 ? { timeout: { server: config.requestTimeoutMs } } : {}),
    },
    router: { stripTrailingSlash: false },
  });

  // Only when tracing is on, and first: its onRequest must run before any other extension (see
  // tracing.plugin.ts), so the request's span is active for everything after it.
  if (app.tracing) await server.register({ plugin: app.tracing.hapiPlugin });
  await server.register({ plugin: errorsPlugin, options: { logger: app.get<Logger>(AppLogger), random: app.get<RandomSource>(RandomSource) } });
  // After the errors plugin: its onRequest gives the id the log line carries.
  await server.register({ plugin: requestLogPlugin, options: { logger: app.get<Logger>(AppLogger), metrics: app.get<ServiceMetrics>(AppMetrics) } });
  await server.register({
    plugin: merchantV1Plugin,
    options: {
      auth: {
        authenticate: app.get(AuthenticateApiKey),
        rateLimiter: app.get<RateLimiter>(RateLimiter),
        rateLimits: { live: config.rateLimitLive, test: config.rateLimitTest },
      },
      resolveApiVersion: app.get(ResolveApiVersion),
      runIdempotently: app.get(RunIdempotently),
      digest: app.get<Digest>(Digest),
      ...routes,
    },
  });
  await server.register({ plugin: channelCallbacksPlugin, options: routes });
  await server.register({
    plugin: checkoutPlugin,
    options: { rateLimiter: app.get<RateLimiter>(RateLimiter), perTokenPerSecond: config.rateLimitCheckout, digest: app.get<Digest>(Digest), ...routes },
  });
  await server.register({ plugin: consolePlugin, options: routes });
  await server.register({
    plugin: dashboardPlugin,
    options: {
      sessions: { secureCookie: config.baseUrl.startsWith('https:'), authenticate: app.get(AuthenticateDashboardSession) },
      origin: new URL(config.baseUrl).origin,
      runIdempotently: app.get(RunIdempotently),
      digest: app.get<Digest>(Digest),
      ...routes,
    },
  });

  // The dummy hash unknown emails are checked against, made now so the first one is not slower.
  await app.get(DashboardCredentials).warmUp();

  // `/health` (alias of live), `/health/live`, `/health/ready` and the OpenAPI document of /v1:
  // outside the three access groups, they reveal nothing.
  await server.register({ plugin: openPlugin, options: routes });
  return server;
}
