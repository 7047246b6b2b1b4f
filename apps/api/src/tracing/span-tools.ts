import {
  context,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';

type Headers = Record<string, string>;
const setter: TextMapSetter<Headers> = { set: (carrier, key, value) => void (carrier[key] = value) };
const getter: TextMapGetter<Headers> = { get: (carrier, key) => carrier[key], keys: (carrier) => Object.keys(carrier) };

/** What every traced decorator needs: the tracer and the W3C propagator. */
export interface SpanTools {
  readonly tracer: Tracer;
  readonly propagator: TextMapPropagator;
}

/** True while a span is recording in `ctx`: statements and units of work only join an existing trace. */
export function recordingIn(ctx: Context): boolean {
  return trace.getSpan(ctx)?.isRecording() ?? false;
}

/**
 * What a failed span says of its error: a stable code or the error's class name, never its
 * message (a driver's message may quote data).
 */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(error.code)) {
    return error.code;
  }
  return error instanceof Error ? error.name : 'unknown';
}

function failed(span: Span, error: unknown): void {
  span.setAttribute('error.type', errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Runs `work` in a new active span (child of `parent`), ending it when `work` settles. */
export function inSpan<T>(tools: SpanTools, name: string, options: SpanOptions, parent: Context, work: (span: Span) => Promise<T>): Promise<T> {
  return tools.tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The same for a call that may answer at once or with a promise (a port method). */
export function inSpanAnyResult(tools: SpanTools, name: string, options: SpanOptions, parent: Context, call: (span: Span) => unknown): unknown {
  return tools.tracer.startActiveSpan(name, options, parent, (span) => {
    let result: unknown;
    try {
      result = call(span);
    } catch (error) {
      failed(span, error);
      span.end();
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          failed(span, error);
          span.end();
          throw error;
        },
      );
    }
    span.end();
    return result;
  });
}

/** The W3C headers of `ctx`'s span (empty without one). */
export function headersOf(tools: SpanTools, ctx: Context = context.active()): Record<string, string> {
  const headers: Headers = {};
  if (trace.getSpan(ctx) === undefined) return headers;
  tools.propagator.inject(ctx, headers, setter);
  return headers;
}

/** The context a stored `traceparent` names (a remote parent), or the root when there is none. */
export function contextOf(tools: SpanTools, traceparent: string | undefined): Context {
  if (traceparent === undefined) return ROOT_CONTEXT;
  const carrier: Headers = { traceparent };
  return tools.propagator.extract(ROOT_CONTEXT, carrier, getter);
}
