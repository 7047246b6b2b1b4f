import type { Plugin } from '@hapi/hapi';
import type { ItemJob, JobLane, PaymentChannel, PayoutGateway, UnitOfWork, WebhookSender } from '@payments/core';
import type { StatementTracer } from '@payments/storage-sql';

/**
 * Traces (OpenTelemetry), as the composition root sees them: decorators of ports and a Hapi
 * plugin, all made by `otel-tracing.ts`, which alone imports OpenTelemetry. This file imports
 * none of it: with tracing off (the default) nothing of OpenTelemetry is loaded, no context
 * manager is installed and no port is wrapped (docs/operations.md, Traces).
 */
export interface Tracing {
  /** A span per SQL statement (the operation and table, never a bound value). */
  readonly statements: StatementTracer;
  /** The server span of each request, named by its route template; joins an incoming `traceparent`. */
  readonly hapiPlugin: Plugin<undefined>;
  /** The W3C headers (`traceparent`, `tracestate`) of the active span, for a call to a third party; empty outside a span. */
  outgoingHeaders(): Record<string, string>;
  /** The `traceparent` of the active span, if one is recording: what a subject's next step is parented to. */
  currentTraceparent(): string | undefined;
  /** A span per outermost unit of work (with how many times its work ran). */
  unitOfWork(uow: UnitOfWork): UnitOfWork;
  /** A client span per channel call; `placed` hears each placed order's id with the call's `traceparent`. */
  channel(channel: PaymentChannel, placed: (channelOrderId: string, traceparent: string) => Promise<void>): PaymentChannel;
  /** A client span per payout provider call. */
  payouts(gateway: PayoutGateway): PayoutGateway;
  /** A client span per webhook POST. */
  webhooks(sender: WebhookSender): WebhookSender;
  /**
   * A span per item of a background job, whose parent is the trace context `parentOf` finds for
   * the item (the work that queued it), or a new trace when there is none.
   */
  itemJob<T, R>(job: ItemJob<T, R>, lane: JobLane, parentOf: (item: T) => Promise<string | undefined>): ItemJob<T, R>;
  /** Sends what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** The environment variables that decide whether tracing is on. */
export type TracingEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * Tracing is on when an exporter is named: `OTEL_TRACES_EXPORTER` (`otlp` or `console`), or an
 * OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and
 * `OTEL_SDK_DISABLED` is not `true`. `OTEL_TRACES_EXPORTER=none` turns it off. Without any of
 * these the service traces nothing and loads nothing of OpenTelemetry.
 */
export function tracingEnabled(env: TracingEnvironment): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  if (exporter) return true;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The OTEL_* entries of `env`: what the tracing reads of it. */
export function otelVariables(env: TracingEnvironment): TracingEnvironment {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('OTEL_')));
}

/**
 * The process's tracing, or undefined when it is off. OpenTelemetry is imported here, on first
 * need, so a service that does not trace never loads it.
 */
export async function loadTracing(env: TracingEnvironment, defaultServiceName: string): Promise<Tracing | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const { startOtelTracing } = await import('./otel-tracing.js');
  return startOtelTracing({ env, defaultServiceName });
}
