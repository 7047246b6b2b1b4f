import { context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { EnterableContextManager } from './context-manager';
import { headersOf, type SpanTools } from './span-tools';
import { currentTraceparent, tracedChannel, tracedItemJob, tracedPayouts, tracedStatements, tracedUnitOfWork, tracedWebhooks } from './traced-ports';
import type { Tracing, TracingEnvironment } from './tracing';
import { tracingPlugin } from './tracing.plugin';

export interface OtelTracingOptions {
  readonly env: TracingEnvironment;
  /** `service.name` when `OTEL_SERVICE_NAME` (or `service.name` in `OTEL_RESOURCE_ATTRIBUTES`) does not name one. */
  readonly defaultServiceName: string;
  /** Where spans go instead of the exporter the environment names (tests: an in-memory exporter). */
  readonly spanProcessor?: SpanProcessor;
}

/** The exporter `OTEL_TRACES_EXPORTER` names (default `otlp`: OTLP over HTTP, JSON, per `OTEL_EXPORTER_OTLP_*`). */
function spanProcessorOf(env: TracingEnvironment): SpanProcessor {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() || 'otlp';
  if (exporter === 'console') return new SimpleSpanProcessor(new ConsoleSpanExporter());
  if (exporter !== 'otlp') throw new Error(`OTEL_TRACES_EXPORTER=${exporter} is not supported: use otlp, console or none.`);
  // Batches in the background (OTEL_BSP_* tune it): a request never waits for the collector.
  return new BatchSpanProcessor(new OTLPTraceExporter());
}

/** `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG` for the ratio ones); default `parentbased_always_on`. */
function samplerOf(env: TracingEnvironment): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const sampleRatio = Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1;
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(sampleRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(sampleRatio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER=${name} is not supported.`);
  }
}

/** One context manager per process: OpenTelemetry's global context can be set once. */
let installedContextManager: EnterableContextManager | undefined;

function contextManager(): EnterableContextManager {
  if (installedContextManager) return installedContextManager;
  const manager = new EnterableContextManager();
  if (!context.setGlobalContextManager(manager)) throw new Error('Another OpenTelemetry context manager is installed already.');
  installedContextManager = manager;
  return manager;
}

/**
 * Starts the process's tracing with the OpenTelemetry SDK: the resource from `OTEL_SERVICE_NAME`
 * and `OTEL_RESOURCE_ATTRIBUTES`, the sampler from `OTEL_TRACES_SAMPLER`, W3C trace context, the
 * exporter from `OTEL_TRACES_EXPORTER` and `OTEL_EXPORTER_OTLP_*`. Loaded only when tracing is on
 * (see tracing.ts).
 */
export function startOtelTracing(options: OtelTracingOptions): Tracing {
  // Later resources win: the environment's names over ours over the SDK's `unknown_service`.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.defaultServiceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    sampler: samplerOf(options.env),
    spanProcessors: [options.spanProcessor ?? spanProcessorOf(options.env)],
  });
  const manager = contextManager();
  const tools: SpanTools = { tracer: provider.getTracer('payments'), propagator: new W3CTraceContextPropagator() };
  return {
    statements: tracedStatements(tools),
    hapiPlugin: tracingPlugin(tools, manager),
    outgoingHeaders: (): Record<string, string> => headersOf(tools),
    currentTraceparent: () => currentTraceparent(tools),
    unitOfWork: (uow) => tracedUnitOfWork(tools, uow),
    channel: (channel, placed) => tracedChannel(tools, channel, placed),
    payouts: (gateway) => tracedPayouts(tools, gateway),
    webhooks: (sender) => tracedWebhooks(tools, sender),
    itemJob: (job, lane, parentOf) => tracedItemJob(tools, job, lane, parentOf),
    shutdown: () => provider.shutdown(),
  };
}
