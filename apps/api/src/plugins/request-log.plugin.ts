import { isBoom } from '@hapi/boom';
import type { Plugin, Request } from '@hapi/hapi';
import hapiPino from 'hapi-pino';
import '../http/request-state';
import type { Logger } from '../logger';
import type { ServiceMetrics } from '../metrics';

export interface RequestLogPluginOptions {
  readonly logger: Logger;
  readonly metrics: ServiceMetrics;
}

function statusOf(request: Request): number {
  const response = request.response;
  if (!response) return 499;
  return isBoom(response) ? response.output.statusCode : response.statusCode;
}

/**
 * One log line and one metrics sample per request. Registered after the errors plugin, whose
 * `onRequest` gives the request its id, so the log line and the `Request-Id` answer carry one id.
 *
 * hapi-pino writes the line; it is told to log no headers, payload, query or path parameters, and
 * its default `req` binding (the raw path and every header) is replaced: paths carry checkout
 * tokens and ids, so the line names the route template, bound once Hapi has routed the request.
 */
export const requestLogPlugin: Plugin<RequestLogPluginOptions> = {
  name: 'payments-request-log',
  async register(server, { logger, metrics }) {
    server.events.on('response', (request) => {
      const route = request.route.path;
      const status = statusOf(request);
      const completed = request.info.completed || request.info.responded || Date.now();
      metrics.httpRequestDuration.observe(
        { route, method: request.method.toUpperCase(), status: String(status) },
        Math.max(0, completed - request.info.received) / 1000,
      );
      // What was sent, whichever plugin set it (header names are case-insensitive there).
      if (request.raw.res.getHeader('idempotent-replayed') === 'true') metrics.idempotencyReplays.inc({ route });
    });

    // Below info the line is never written (the level is fixed at start): then no request pays
    // for hapi-pino's extension, its listener or a child logger.
    if (!logger.isLevelEnabled('info')) return;
    await server.register({
      plugin: hapiPino,
      options: {
        instance: logger,
        // Only the per-request line: 5xx are logged with their cause by the errors plugin.
        logEvents: ['response'],
        logPayload: false,
        logQueryParams: false,
        logPathParams: false,
        getChildBindings: (request: Request) => ({ request_id: request.app.requestId }),
        wrapSerializers: false,
        serializers: { res: (res: { statusCode: number }) => ({ status: res.statusCode }) },
        customRequestCompleteMessage: () => 'request',
      },
    });

    server.ext('onPreResponse', (request, h) => {
      // Routed by now (an unknown path has the catch-all template `/{p*}`, never the path itself).
      request.logger = request.logger.child({ method: request.method.toUpperCase(), route: request.route.path });
      return h.continue;
    });
  },
};
