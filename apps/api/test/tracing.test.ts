import { randomBytes } from 'node:crypto';
import test from 'ava';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import {
  RelayWebhookDeliveries,
  ReleaseFunds,
  ReportChannelSettlements,
  RunItemJobs,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSender,
} from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import type { Knex } from 'knex';
import { AppKnex } from '../src/container';
import { startOtelTracing } from '../src/tracing/otel-tracing';
import { loadTracing } from '../src/tracing/tracing';
import { asUser, signIn } from './helpers/dashboard';
import { apiObjectAt, textAt } from './helpers/json';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';

/** Records every webhook request and answers 200. */
class RecordingSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return { status: 200, latencyMs: 1 };
  }
}

const exporter = new InMemorySpanExporter();
const tracing = startOtelTracing({ env: {}, defaultServiceName: 'payments-test', spanProcessor: new SimpleSpanProcessor(exporter) });
const sender = new RecordingSender();
const clock = new FakeClock(new Date('2026-09-01T12:00:00Z'));
let t0: TestApp;

/** A payment intent created and its PromptPay attempt made by `key`, both sent with `headers` (a caller's trace context). */
async function createAndAttempt(app: TestApp, key: string, headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const created = await app.request({ method: 'POST', url: '/v1/payment_intents', key, idempotencyKey: unique(), payload: createBody(body), headers });
  const intentId = textAt(created.result, 'id');
  const attempt = await app.request({
    method: 'POST',
    url: `/v1/payment_intents/${intentId}/attempts`,
    key,
    idempotencyKey: unique(),
    payload: { payment_method: 'promptpay' },
    headers,
  });
  return { created, intentId, attempt };
}

test.before(async () => {
  t0 = await startTestApp({ clock, webhookSender: sender, tracing });
});
test.after.always(async () => {
  await t0?.close();
  await tracing.shutdown();
});

/** A traced merchant client's own span: a `traceparent` it sends with each call of one checkout. */
function clientTraceparent(): { traceId: string; spanId: string; header: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, header: `00-${traceId}-${spanId}-01` };
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The spans of one trace, and questions about its tree. */
function traceOf(traceId: string) {
  const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const named = (name: string): ReadableSpan[] => spans.filter((span) => span.name === name);
  const one = (name: string): ReadableSpan => {
    const found = named(name);
    if (found.length !== 1) throw new Error(`${found.length} spans named ${name}: ${spans.map((span) => span.name).join(', ')}`);
    return found[0];
  };
  const descendsFrom = (span: ReadableSpan, ancestor: ReadableSpan): boolean => {
    for (let id = parentOf(span); id !== undefined; id = byId.get(id) && parentOf(byId.get(id)!)) {
      if (id === ancestor.spanContext().spanId) return true;
    }
    return false;
  };
  return { spans, named, one, descendsFrom };
}

test.serial("one payment's create, attempt, callback, settlement report, release and webhook delivery form one trace", async (t) => {
  const shop = await t0.merchant();
  const user = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  const hookHost = `hooks-${unique()}.example.com`;
  const hook = await asUser(t0, user, { method: 'POST', url: '/dashboard/v1/webhook_endpoints?mode=test', payload: { url: `https://${hookHost}/in` } });
  t.is(hook.statusCode, 201);
  const endpointSecret = textAt(apiObjectAt(hook.result), 'secret');

  const client = clientTraceparent();
  const headers = { traceparent: client.header };
  // 10001 ends in 01: the simulated channel pays it by itself on its next tick (a magic outcome).
  const order = unique('order');
  const { created, intentId, attempt } = await createAndAttempt(t0, shop.testKey, headers, { amount: 10001, merchant_order_id: order });
  t.is(created.statusCode, 201, created.payload);
  t.is(attempt.statusCode, 201, attempt.payload);

  // The worker's steps, each through the runner the worker uses.
  const runner = t0.app.get(RunItemJobs);
  const simulator = t0.app.get(SimulatorPaymentChannel).jobs();
  await runner.runEveryLane(simulator.outcomes, 100); // sends the signed callback over HTTP
  const paid = await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key: shop.testKey });
  t.is(textAt(paid.result, 'status'), 'succeeded');
  clock.advance(1000);
  await simulator.settlePaid();
  await runJob(t0.app, ReportChannelSettlements);
  const settled = await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key: shop.testKey });
  t.is(textAt(settled.result, 'status'), 'channel_settled');
  clock.advance(40 * 24 * 3600 * 1000); // past any settlement delay
  const releases = await runJob(t0.app, ReleaseFunds);
  t.true(releases.outcomes.some(({ item, outcome }) => item.id === intentId && outcome));
  const sentBefore = sender.requests.length;
  await runJob(t0.app, RelayWebhookDeliveries);
  const delivered = sender.requests.slice(sentBefore).filter((request) => request.body.includes(intentId));
  t.true(delivered.length >= 2, 'created and succeeded at least');

  const trace = traceOf(client.traceId);
  const create = trace.one('POST /v1/payment_intents');
  const place = trace.one('POST /v1/payment_intents/{id}/attempts');
  t.is(parentOf(create), client.spanId, 'the create joins the client’s trace');
  t.is(parentOf(place), client.spanId, 'the attempt joins the client’s trace');
  t.like(create.attributes, { 'http.request.method': 'POST', 'http.route': '/v1/payment_intents', 'http.response.status_code': 201 });

  const placeOrder = trace.one('channel simulator placeOrder');
  t.true(trace.descendsFrom(placeOrder, place));
  t.like(placeOrder.attributes, { 'payments.channel': 'simulator', 'payments.mode': 'test' });

  // The channel's outcome: the order's job item is parented to the call that placed the order,
  // and the callback it sends carries that trace to the API.
  const outcome = trace.one('job simulator-outcomes');
  t.is(parentOf(outcome), placeOrder.spanContext().spanId);
  const callback = trace.named('POST /channels/{channel}/callback/{mode}');
  t.is(callback.length, 1, trace.spans.map((span) => span.name).join(', '));
  t.is(parentOf(callback[0]), outcome.spanContext().spanId);

  const report = trace.one('job report-channel-settlements');
  t.true(trace.descendsFrom(report, callback[0]), 'the settlement report follows the callback that paid');
  const release = trace.one('job release-funds');
  t.true(trace.descendsFrom(release, report), 'the release follows the settlement report');

  // Every delivery of this payment's events joins the trace, under the request that made its event.
  const relays = trace.named('job relay-webhooks');
  t.is(relays.length, delivered.length);
  t.deepEqual(
    delivered.map((request) => textAt(JSON.parse(request.body), 'type')),
    ['payment_intent.requires_payment', 'payment_intent.succeeded', 'payment_intent.channel_settled'],
  );
  // Each delivery under the step that made its event (each step's subtree holds the later ones:
  // attempt ⊃ callback ⊃ report).
  const under = (parent: ReadableSpan) => relays.filter((relay) => trace.descendsFrom(relay, parent)).length;
  t.deepEqual([under(create), under(place) - under(callback[0]), under(callback[0]) - under(report), under(report)], [0, 1, 1, 1]);
  for (const relay of relays) {
    const send = trace.spans.filter((span) => span.name === 'webhook send' && parentOf(span) === relay.spanContext().spanId);
    t.is(send.length, 1);
    t.like(send[0].attributes, { 'http.response.status_code': 200 });
  }

  // Units of work and their statements, inside the create: the operation and table, never values.
  const unit = trace.spans.find((span) => span.name === 'unit of work' && parentOf(span) === create.spanContext().spanId);
  t.truthy(unit);
  t.is(unit?.attributes['payments.uow.runs'], 1);
  const insert = trace.spans.find((span) => span.name === 'INSERT payment_intents' && trace.descendsFrom(span, create));
  t.truthy(insert);
  t.like(insert?.attributes, { 'db.operation.name': 'INSERT', 'db.collection.name': 'payment_intents' });
  t.true(['sqlite', 'mysql'].includes(String(insert?.attributes['db.system'])));

  // What no span may carry: keys, secrets, passwords, session tokens, bodies' values, merchants' URLs.
  const secrets = [shop.testKey, endpointSecret, user.password, user.cookie.split('=')[1], order, hookHost];
  const everything = exporter.getFinishedSpans();
  t.true(everything.length > 50);
  for (const span of everything) {
    const text = `${span.name} ${JSON.stringify(span.attributes)} ${JSON.stringify(span.events)} ${JSON.stringify(span.resource.attributes)}`;
    for (const secret of secrets) t.false(text.includes(secret), `span ${span.name} carries a secret`);
  }
});

test.serial('a request without traceparent starts a trace of its own; an unknown path is named by the catch-all template', async (t) => {
  exporter.reset();
  const shop = await t0.merchant();
  const res = await t0.request({ method: 'GET', url: `/v1/payment_intents/pi_${randomBytes(8).toString('hex')}?expand=secret`, key: shop.testKey });
  t.is(res.statusCode, 404);
  await t0.request({ method: 'GET', url: '/nowhere/pi_123?token=abc' });
  const servers = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
  t.deepEqual(servers.map((span) => span.name).sort(), ['GET /v1/payment_intents/{id}', 'GET /{p*}']);
  for (const span of servers) {
    t.is(span.parentSpanContext, undefined);
    t.false(JSON.stringify(span.attributes).includes('pi_'));
    t.false(JSON.stringify(span.attributes).includes('token'));
  }
});

test.serial('the OTEL_* variables load the SDK on demand; an unknown exporter or sampler is a start-up error', async (t) => {
  const loaded = await loadTracing({ OTEL_TRACES_EXPORTER: 'console' }, 'payments');
  t.truthy(loaded);
  await loaded?.shutdown();
  t.is(await loadTracing({ OTEL_TRACES_EXPORTER: 'none' }, 'payments'), undefined);
  await t.throwsAsync(() => loadTracing({ OTEL_TRACES_EXPORTER: 'zipkin' }, 'payments'), { message: /OTEL_TRACES_EXPORTER=zipkin/ });
  await t.throwsAsync(() => loadTracing({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' }, 'payments'), { message: /OTEL_TRACES_SAMPLER/ });
});

test.serial('spans the sampler drops are not exported and leave no trace context behind', async (t) => {
  const dropped = new InMemorySpanExporter();
  const sampledOut = startOtelTracing({
    env: { OTEL_TRACES_SAMPLER: 'always_off' },
    defaultServiceName: 'payments-test',
    spanProcessor: new SimpleSpanProcessor(dropped),
  });
  const app = await startTestApp({ tracing: sampledOut });
  try {
    const shop = await app.merchant();
    const headers = { traceparent: clientTraceparent().header };
    const { intentId, attempt } = await createAndAttempt(app, shop.testKey, headers);
    t.is(attempt.statusCode, 201);
    t.deepEqual(dropped.getFinishedSpans(), []);
    t.truthy(app.app.traceContexts);
    t.is(await app.app.traceContexts?.find(intentId), undefined);
    // Nor for the events, the deliveries or the channel's order: the table stays empty.
    t.deepEqual(await app.app.get<Knex>(AppKnex)('trace_contexts').select('subject_id'), []);
  } finally {
    await app.close();
    await sampledOut.shutdown();
  }
});
