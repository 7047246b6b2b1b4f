import test from 'ava';
import { jsonAt } from '../fixtures';
import { freePort, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
let service: RunningService;
let metricsPort: number;

test.before(async () => {
  environment = await serviceEnvironment();
  metricsPort = await freePort();
  service = await startService({ ...environment.env, PAYMENTS_METRICS_PORT: String(metricsPort), PAYMENTS_TICK_MS: '100' });
});
test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
});

test.serial('npm start: /health/live and /health/ready over a real socket, no secret in them', async (t) => {
  const live = await fetch(`${service.baseUrl}/health/live`);
  t.is(live.status, 200);
  const ready = await fetch(`${service.baseUrl}/health/ready`);
  t.is(ready.status, 200);
  const body: unknown = await ready.json();
  t.is(jsonAt(body, 'status'), 'ready');
  t.is(jsonAt(body, 'checks', 'database'), 'ok');
  t.false(JSON.stringify(body).includes('://'), 'no URL in the answer');
});

test.serial('npm start: one metrics server on its own port serves API and worker series', async (t) => {
  await fetch(`${service.baseUrl}/health/live`);
  // A few ticks, so every job has run at least once.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  t.is(res.status, 200);
  const text = await res.text();
  t.regex(text, /^payments_http_request_duration_seconds_count\{route="\/health\/live",method="GET",status="200"\} \d+/m);
  // Every lane ticks on its own: the live and the test relay both ran.
  t.regex(text, /^payments_job_duration_seconds_count\{job="relay-webhooks",lane="live",outcome="ok"\} \d+/m);
  t.regex(text, /^payments_job_duration_seconds_count\{job="relay-webhooks",lane="test",outcome="ok"\} \d+/m);
  t.regex(text, /^payments_scheduler_lag_seconds\{job="relay-webhooks",lane="live"\} /m);
  // No item failed, and the gauge of waiting items is sampled (empty: no series yet).
  t.regex(text, /^# TYPE payments_job_items_waiting_retry gauge/m);
  t.notRegex(text, /^payments_job_item_failures_total\{/m);
  t.regex(text, /^payments_webhook_backlog \d+/m);
  t.regex(text, /^payments_ledger_verify_ok 1/m);
  t.regex(text, /^payments_process_resident_memory_bytes /m);
  // The public port does not serve metrics.
  t.is((await fetch(`${service.baseUrl}/metrics`)).status, 404);
  t.true(service.output().includes('"metrics listening"'));
});

test.serial('SIGTERM still stops cleanly with the metrics server open', async (t) => {
  t.is(await service.stop(), 0);
});
