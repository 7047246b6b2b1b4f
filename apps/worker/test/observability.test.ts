import { randomBytes } from 'node:crypto';
import test from 'ava';
import { workerTestConfig } from './helpers/worker-test-config';
import { freePort } from '@payments/node-runtime';
import { textAt } from '@payments/api/dist/test/helpers/json';
import { AppMetrics, buildContainer, createLogger, createServer, type ServiceMetrics } from '@payments/api';
import { CreateMerchant, CreateWebhookEndpoint, LockManager, type WebhookRequest, type WebhookResponse, type WebhookSender } from '@payments/core';
import { workerLanes } from '../src/jobs';
import { enableWorkerMetrics, jobMetrics } from '../src/observability';
import { Scheduler } from '../src/scheduler';

/** Accepts every webhook without the network. */
class AcceptingSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return { status: 200, latencyMs: 1 };
  }
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('worker metrics: backlog, delivery outcomes, scheduler lag and job duration, ledger verify status', async (t) => {
  const { config, remove } = await workerTestConfig('metrics', {
    PAYMENTS_RATE_LIMIT_TEST: '0',
  });
  const sender = new AcceptingSender();
  const app = await buildContainer(config, { webhookSender: sender, logger: createLogger('silent') });
  const server = await createServer(app);
  try {
    const metrics = app.get<ServiceMetrics>(AppMetrics);
    enableWorkerMetrics(app);
    const address = await metrics.listen({ host: '127.0.0.1', port: await freePort() }, createLogger('silent'));
    const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${address!.port}/metrics`)).text();

    const suffix = randomBytes(6).toString('hex');
    const shop = await app.get(CreateMerchant).execute({ name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password: 'correct horse battery' });
    await app.get(CreateWebhookEndpoint).execute(shop.owner, { mode: 'test', url: `https://hooks-${suffix}.example.com/in` });
    const auth = { authorization: `Bearer ${shop.testApiKey.secret}` };
    const created = await server.inject({
      method: 'POST',
      url: '/v1/payment_intents',
      headers: { ...auth, 'idempotency-key': `k-${suffix}` },
      payload: { amount: 1000, currency: 'THB', merchant_order_id: `o-${suffix}` },
    });
    t.is(created.statusCode, 201);
    const id = textAt(JSON.parse(created.payload), 'id');
    t.is(
      (await server.inject({ method: 'POST', url: `/v1/payment_intents/${id}/cancel`, headers: { ...auth, 'idempotency-key': `c-${suffix}` } })).statusCode,
      200,
    );

    const before = await scrape();
    t.true((sample(before, 'payments_webhook_backlog') ?? 0) >= 1, 'the cancel event waits for the relay');
    t.is(sample(before, 'payments_webhook_delivery_attempts_total{outcome="delivered"}'), undefined);

    const scheduler = new Scheduler(workerLanes(app), config.tickMs, createLogger('silent'), app.get<LockManager>(LockManager), jobMetrics(metrics));
    await scheduler.pass();
    const after = await scrape();
    t.true(sender.requests.length >= 1);
    t.is(sample(after, 'payments_webhook_delivery_attempts_total{outcome="delivered"}'), sender.requests.length);
    t.is(sample(after, 'payments_webhook_backlog'), 0);
    t.is(sample(after, 'payments_scheduler_lag_seconds{job="relay-webhooks",lane="test"}'), 0, 'a first run is never late');
    t.is(sample(after, 'payments_job_duration_seconds_count{job="relay-webhooks",lane="test",outcome="ok"}'), 1);
    t.is(sample(after, 'payments_ledger_verify_ok'), 1);
    t.is(sample(after, 'payments_ledger_verify_breaks'), 0);
    t.true((sample(after, 'payments_ledger_verify_last_run_timestamp_seconds') ?? 0) > 0);
    t.false(after.includes(shop.testApiKey.secret));
    t.false(after.includes(id), 'no ids in labels');

    // A later pass of a job due every tick that starts late shows the lag.
    await new Promise((resolve) => setTimeout(resolve, config.tickMs + 50));
    await scheduler.pass();
    t.true((sample(await scrape(), 'payments_scheduler_lag_seconds{job="relay-webhooks",lane="test"}') ?? 0) > 0);
  } finally {
    await server.stop();
    await app.close();
    await remove();
  }
});
