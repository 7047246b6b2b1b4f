import { isBoom } from '@hapi/boom';
import type { Plugin, Request } from '@hapi/hapi';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import '../http/request-state';
import type { EnterableContextManager } from './context-manager';
import type { SpanTools } from './span-tools';

function statusOf(request: Request): number {
  const response = request.response;
  if (!response) return 499;
  return isBoom(response) ? response.output.statusCode : response.statusCode;
}

const headerGetter = {
  get: (headers: Request['headers'], key: string): string | undefined => {
    const value: unknown = headers[key];
    return typeof value === 'string' ? value : undefined;
  },
  keys: (headers: Request['headers']): string[] => Object.keys(headers),
};

/**
 * The SERVER span of each request. Started in `onRequest` as a child of the caller's
 * `traceparent` (a traced client, or a channel echoing the one it was sent with the order),
 * else a new trace, and entered for the rest of the request, so its units of work, statements and
 * calls are its children. The plugin must be registered before any other: its `onRequest` then
 * runs synchronously inside Hapi's dispatch, before the lifecycle's first `await`, so every later
 * step of the request continues in the context it entered (an extension that ran after an await
 * would enter it only for its own continuation; tracing.test.ts fails then). Named by the route template once routed (`POST /v1/payment_intents`,
 * `/{p*}` for an unknown path), never the path: paths carry ids and checkout tokens. Its
 * attributes are the method, the template, the status and the request id; never a header, the
 * query or the body.
 */
export function tracingPlugin(tools: SpanTools, contextManager: EnterableContextManager): Plugin<undefined> {
  const spans = new WeakMap<Request, Span>();
  return {
    name: 'payments-tracing',
    register(server) {
      server.ext('onRequest', (request, h) => {
        // From the root, never the active context: nothing of another request can leak in.
        const parent = tools.propagator.extract(ROOT_CONTEXT, request.headers, headerGetter);
        const method = request.method.toUpperCase();
        const span = tools.tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
        spans.set(request, span);
        contextManager.enterWith(trace.setSpan(parent, span));
        return h.continue;
      });
      server.events.on('response', (request) => {
        const span = spans.get(request);
        if (!span) return;
        const method = request.method.toUpperCase();
        const status = statusOf(request);
        span.updateName(`${method} ${request.route.path}`);
        span.setAttribute('http.route', request.route.path);
        span.setAttribute('http.response.status_code', status);
        // The Request-Id of the answer and of the log line, to go from a trace to the logs.
        span.setAttribute('payments.request_id', request.app.requestId);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
    },
  };
}
