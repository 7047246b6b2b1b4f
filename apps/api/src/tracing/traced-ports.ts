import { context, createContextKey, SpanKind, trace } from '@opentelemetry/api';
import type { ItemJob, JobLane, PaymentChannel, PayoutGateway, Transaction, UnitOfWork, WebhookSender } from '@payments/core';
import type { StatementTracer } from '@payments/storage-sql';
import { contextOf, headersOf, inSpan, inSpanAnyResult, recordingIn, type SpanTools } from './span-tools';
import { statementName, statementSpanName } from './statement-names';

/** Marks a context inside a traced unit of work: a nested `run` joins it and makes no span. */
const IN_UNIT_OF_WORK = createContextKey('payments unit of work');

/** A CLIENT span per SQL statement inside a trace: `SELECT payment_intents`, the dialect, never a value. */
export function tracedStatements(tools: SpanTools): StatementTracer {
  return {
    trace: (sql, dialect, run) => {
      const parent = context.active();
      if (!recordingIn(parent)) return run();
      const name = statementName(sql);
      const attributes = { 'db.system': dialect, 'db.operation.name': name.operation, ...(name.table ? { 'db.collection.name': name.table } : {}) };
      return inSpan(tools, statementSpanName(name), { kind: SpanKind.CLIENT, attributes }, parent, () => run());
    },
  };
}

/**
 * A span per outermost unit of work inside a trace, saying how many times its work ran
 * (retries). The wrapped unit of work is a field, so binding to a transaction binds it (a nested
 * `run` then joins the transaction, and makes no span).
 */
class TracedUnitOfWork implements UnitOfWork {
  constructor(
    private readonly tools: SpanTools,
    readonly inner: UnitOfWork,
  ) {}

  afterCommit(callback: () => Promise<void>): void {
    this.inner.afterCommit(callback);
  }

  run<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    const parent = context.active();
    if (!recordingIn(parent) || parent.getValue(IN_UNIT_OF_WORK) === true) return this.inner.run(work);
    return inSpan(this.tools, 'unit of work', { kind: SpanKind.INTERNAL }, parent.setValue(IN_UNIT_OF_WORK, true), async (span) => {
      let runs = 0;
      try {
        return await this.inner.run((transaction) => {
          runs += 1;
          return work(transaction);
        });
      } finally {
        span.setAttribute('payments.uow.runs', runs);
      }
    });
  }
}

export const tracedUnitOfWork = (tools: SpanTools, uow: UnitOfWork): UnitOfWork => new TracedUnitOfWork(tools, uow);

/** The mode a port call names: its first argument, or the request's `mode`. */
function modeOf(args: readonly unknown[]): string | undefined {
  const [first] = args;
  if (first === 'live' || first === 'test') return first;
  if (typeof first === 'object' && first !== null && 'mode' in first && (first.mode === 'live' || first.mode === 'test')) return first.mode;
  return undefined;
}

/**
 * `target` with every method call in a CLIENT span named `name(method)`, with the call's mode and
 * `attributes`; arguments and answers are never recorded (they carry account numbers, amounts a
 * merchant may consider private, bodies). `after` sees each answer inside the span.
 */
function tracedCalls<T extends object>(
  tools: SpanTools,
  target: T,
  name: (method: string) => string,
  attributes: Record<string, string>,
  after?: (method: string, result: unknown) => Promise<void>,
  untraced: ReadonlySet<string> = new Set(),
): T {
  return new Proxy(target, {
    get(object, property) {
      const member: unknown = Reflect.get(object, property, object);
      if (typeof member !== 'function' || typeof property !== 'string') return member;
      if (untraced.has(property)) {
        return (...args: unknown[]): unknown => {
          const result: unknown = Reflect.apply(member, object, args);
          return result;
        };
      }
      return (...args: unknown[]): unknown => {
        const mode = modeOf(args);
        const spanAttributes = { ...attributes, 'payments.operation': property, ...(mode ? { 'payments.mode': mode } : {}) };
        return inSpanAnyResult(tools, name(property), { kind: SpanKind.CLIENT, attributes: spanAttributes }, context.active(), (): unknown => {
          const result: unknown = Reflect.apply(member, object, args);
          if (!after || !(result instanceof Promise)) return result;
          return result.then(async (value: unknown) => {
            await after(property, value).catch(() => undefined); // tracing never fails a payment
            return value;
          });
        });
      };
    },
  });
}

/** Channel calls: `channel simulator placeOrder`; the channel-rest adapter sends the span's `traceparent`. */
export function tracedChannel(
  tools: SpanTools,
  channel: PaymentChannel,
  placed: (channelOrderId: string, traceparent: string) => Promise<void>,
): PaymentChannel {
  const channelName = channel.capabilities.name;
  return tracedCalls(
    tools,
    channel,
    (method) => `channel ${channelName} ${method}`,
    { 'payments.channel': channelName },
    async (method, result) => {
      if (method !== 'placeOrder' || typeof result !== 'object' || result === null) return;
      if (!('outcome' in result) || result.outcome !== 'placed' || !('channelOrderId' in result) || typeof result.channelOrderId !== 'string') return;
      const traceparent = currentTraceparent(tools); // none for a span the sampler dropped
      if (traceparent) await placed(result.channelOrderId, traceparent);
    },
  );
}

/** Payout provider calls: `payout sendPayout` (`supports`, a lookup of the configuration, makes none). */
export function tracedPayouts(tools: SpanTools, gateway: PayoutGateway): PayoutGateway {
  return tracedCalls(tools, gateway, (method) => `payout ${method}`, {}, undefined, new Set(['supports']));
}

/** Webhook POSTs: `webhook send`, with the endpoint's status; never its URL, headers or body. */
export function tracedWebhooks(tools: SpanTools, sender: WebhookSender): WebhookSender {
  return {
    send: (request) =>
      inSpan(tools, 'webhook send', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST' } }, context.active(), async (span) => {
        const response = await sender.send(request);
        if (response.status !== undefined) span.setAttribute('http.response.status_code', response.status);
        span.setAttribute('payments.webhook.delivered', response.status !== undefined && response.status >= 200 && response.status < 300);
        return response;
      }),
  };
}

/**
 * Each item of a job in a CONSUMER span `job <name>` whose parent is the trace context the item's
 * subject was left with (the work that queued it), or a trace of its own when there is none.
 * A parent, not a link: the item is the next step of that very work (its callback, its webhook,
 * its settlement), and the parent link is what makes one payment one trace.
 */
export function tracedItemJob<T, R>(tools: SpanTools, job: ItemJob<T, R>, lane: JobLane, parentOf: (item: T) => Promise<string | undefined>): ItemJob<T, R> {
  return {
    name: job.name,
    lanes: job.lanes,
    ...(job.concurrency === undefined ? {} : { concurrency: job.concurrency }),
    ...(job.progressed ? { progressed: (outcome: R, item: T) => job.progressed?.(outcome, item) ?? Boolean(outcome) } : {}),
    due: (jobLane, limit, deferred) => job.due(jobLane, limit, deferred),
    idOf: (item) => job.idOf(item),
    handle: async (item, pass) => {
      const itemId = job.idOf(item);
      const parent = contextOf(tools, await parentOf(item).catch(() => undefined));
      const attributes = { 'payments.job': job.name, 'payments.job.lane': lane, 'payments.job.item': itemId };
      return inSpan(tools, `job ${job.name}`, { kind: SpanKind.CONSUMER, attributes }, parent, () => job.handle(item, pass));
    },
  };
}

/** The `traceparent` of the active span, when one is recording. */
export function currentTraceparent(tools: SpanTools): string | undefined {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? headersOf(tools, active).traceparent : undefined;
}
