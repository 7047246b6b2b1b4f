import {
  BIND_TO_TRANSACTION,
  Clock,
  EventOutbox,
  PaymentChannelRegistry,
  PaymentIntentRepository,
  PayoutGateway,
  RunItemJobs,
  UnitOfWork,
  WebhookDeliveryRepository,
  WebhookSender,
  type PaymentChannel,
  type StorageTransaction,
} from '@payments/core';
import type { TraceContextStore } from '@payments/storage-sql';
import { ContainerModule, type ResolutionContext } from 'inversify';
import type { Tracing } from '../tracing/tracing';
import { resolve, type Key } from './wiring';

/** Writes the active trace context, if any, for a subject into `contexts`. */
type ContextRecorder = (contexts: TraceContextStore, subjectId: string) => Promise<void>;

/**
 * `target` whose `methods` also remember the active trace context for the subject each call
 * writes (`subjectOf` its arguments), in `contexts`, in the same unit of work: where the next
 * step of that subject, run by the worker, finds its parent. A call outside any trace records
 * nothing. Bound to a transaction, the target and the store are bound to it together.
 */
function recordingContexts<T extends object>(
  target: T,
  methods: ReadonlyArray<keyof T & string>,
  subjectOf: (args: readonly unknown[]) => string | undefined,
  contexts: TraceContextStore,
  record: ContextRecorder,
): T {
  const recorded = new Set<string>(methods);
  return new Proxy(target, {
    get(object, property) {
      if (property === BIND_TO_TRANSACTION) {
        return (transaction: StorageTransaction) => recordingContexts(transaction.bind(object), methods, subjectOf, transaction.bind(contexts), record);
      }
      const member: unknown = Reflect.get(object, property, object);
      if (typeof member !== 'function') return member;
      if (typeof property !== 'string' || !recorded.has(property)) {
        return (...args: unknown[]): unknown => {
          const result: unknown = Reflect.apply(member, object, args);
          return result;
        };
      }
      return async (...args: unknown[]): Promise<unknown> => {
        const result: unknown = await Reflect.apply(member, object, args);
        const subject = subjectOf(args);
        if (subject !== undefined) await record(contexts, subject);
        return result;
      };
    },
  });
}

/** The `id` of a call's first argument (an intent, an event, a delivery), or the argument itself when it is an id. */
function firstId(args: readonly unknown[]): string | undefined {
  const [first] = args;
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && 'id' in first && typeof first.id === 'string') return first.id;
  return undefined;
}

/** The registry's channels, each traced once. */
function tracedRegistry(registry: PaymentChannelRegistry, trace: (channel: PaymentChannel) => PaymentChannel): PaymentChannelRegistry {
  const traced = new WeakMap<PaymentChannel, PaymentChannel>();
  const of = (channel: PaymentChannel): PaymentChannel => {
    let wrapped = traced.get(channel);
    if (!wrapped) {
      wrapped = trace(channel);
      traced.set(channel, wrapped);
    }
    return wrapped;
  };
  return {
    find: (name) => {
      const channel = registry.find(name);
      return channel && of(channel);
    },
    forMode: (mode) => registry.forMode(mode).map(of),
  };
}

/**
 * Tracing's decorations, loaded only when tracing is on (docs/operations.md, Traces): the unit of
 * work, the channels, the payout gateway and the webhook sender in spans; every job item in a span
 * parented to the trace context its subject was left with; and the writes that queue work for the
 * worker (an intent's changes, an event, a webhook delivery) remembering that context. With
 * tracing off this module is not loaded and every port is the adapter itself.
 */
export const tracingModule = (tracing: Tracing, contexts: TraceContextStore): ContainerModule =>
  new ContainerModule((options) => {
    const recorder =
      (clock: Clock): ContextRecorder =>
      async (store, subjectId) => {
        const traceparent = tracing.currentTraceparent();
        if (traceparent !== undefined) await store.record(subjectId, traceparent, clock.now());
      };
    // Each port as the container makes it, wrapped once (the bindings are singletons).
    const decorate = <T>(key: Key<T>, wrap: (ctx: ResolutionContext, instance: T) => T): void => options.onActivation<T>(key, wrap);
    decorate(UnitOfWork, (_ctx, uow) => tracing.unitOfWork(uow));
    decorate(PaymentIntentRepository, (ctx, intents) =>
      recordingContexts(intents, ['insert', 'update', 'bumpVersion', 'deferSettlementCheck'], firstId, contexts, recorder(resolve(ctx, Clock))),
    );
    decorate(EventOutbox, (ctx, events) => recordingContexts(events, ['append'], firstId, contexts, recorder(resolve(ctx, Clock))));
    decorate(WebhookDeliveryRepository, (ctx, deliveries) => recordingContexts(deliveries, ['insert'], firstId, contexts, recorder(resolve(ctx, Clock))));
    decorate(PaymentChannelRegistry, (ctx, registry) => {
      const clock = resolve(ctx, Clock);
      return tracedRegistry(registry, (channel) =>
        tracing.channel(channel, (channelOrderId, traceparent) => contexts.record(channelOrderId, traceparent, clock.now())),
      );
    });
    decorate(PayoutGateway, (_ctx, gateway) => tracing.payouts(gateway));
    decorate(WebhookSender, (_ctx, sender) => tracing.webhooks(sender));
    decorate(RunItemJobs, (_ctx, runner) => {
      // The runner as it is, but every job it runs is traced item by item (runEveryLane calls run).
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an object whose prototype is the runner is a runner
      const traced: RunItemJobs = Object.create(runner) as RunItemJobs;
      Object.defineProperty(traced, 'run', {
        value: ((job, lane, limit) =>
          runner.run(
            tracing.itemJob(job, lane, (item) => contexts.find(job.idOf(item))),
            lane,
            limit,
          )) satisfies RunItemJobs['run'],
      });
      return traced;
    });
  });
