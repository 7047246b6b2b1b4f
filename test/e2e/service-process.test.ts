import test from 'ava';
import { jsonAt, listAt, textAt } from '../fixtures';
import { printedDemoKey, runAdmin, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
let service: RunningService;
let demoKey: string;

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  demoKey = printedDemoKey(service);
});

test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
});

async function call(path: string, init: { method?: string; key?: string; idempotencyKey?: string; body?: unknown } = {}) {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.idempotencyKey ? { 'idempotency-key': init.idempotencyKey } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const json: unknown = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, json };
}

test.serial('the first start prints a demo merchant whose test key works over a real socket', async (t) => {
  t.regex(service.output(), /owner email:\s+demo@example\.com/);
  const res = await call('/v1/payment_intents', { key: demoKey });
  t.is(res.status, 200);
  t.is(jsonAt(res.json, 'object'), 'list');
});

test.serial('create, replay, get, list and cancel over HTTP', async (t) => {
  const body = { amount: 12345, currency: 'THB', merchant_order_id: `e2e-${Date.now()}`, return_url: 'https://shop.example.com/thanks' };
  const created = await call('/v1/payment_intents', { method: 'POST', key: demoKey, idempotencyKey: 'e2e-create-1', body });
  t.is(created.status, 201);
  t.regex(textAt(created.json, 'checkout_url'), /\/c\/[A-Za-z0-9_-]{43}$/);
  const id = textAt(created.json, 'id');
  const replay = await call('/v1/payment_intents', { method: 'POST', key: demoKey, idempotencyKey: 'e2e-create-1', body });
  t.is(replay.status, 201);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.is(replay.text, created.text);
  const got = await call(`/v1/payment_intents/${id}`, { key: demoKey });
  t.like(got.json, { id, status: 'created', amount: 12345 });
  const listed = await call(`/v1/payment_intents?merchant_order_id=${body.merchant_order_id}`, { key: demoKey });
  t.deepEqual(
    listAt(listed.json, 'data').map((intent) => jsonAt(intent, 'id')),
    [id],
  );
  const canceled = await call(`/v1/payment_intents/${id}/cancel`, { method: 'POST', key: demoKey, idempotencyKey: 'e2e-cancel-1' });
  t.is(canceled.status, 200);
  t.is(jsonAt(canceled.json, 'status'), 'canceled');
  const events = await call('/v1/events', { key: demoKey });
  t.is(jsonAt(events.json, 'data', 0, 'type'), 'payment_intent.canceled');
  t.is(jsonAt(events.json, 'data', 0, 'data', 'id'), id);
});

test.serial('the admin CLI creates a merchant whose key the running service accepts, and opens live mode', async (t) => {
  const email = `cli-${Date.now()}@example.com`;
  const created = await runAdmin(environment.env, [
    'merchant',
    'create',
    '--name',
    'CLI Shop',
    '--email',
    email,
    '--password',
    'a long enough password',
    '--schedule',
    'manual',
  ]);
  t.is(created.code, 0, created.stderr);
  const out: unknown = JSON.parse(created.stdout);
  const merchantId = textAt(out, 'merchant', 'id');
  t.regex(merchantId, /^mch_/);
  t.is(jsonAt(out, 'merchant', 'settlement_schedule'), 'manual');
  t.is(jsonAt(out, 'merchant', 'live_enabled'), false);
  t.is(jsonAt(out, 'owner', 'email'), email);
  const res = await call('/v1/payment_intents', { key: textAt(out, 'test_api_key') });
  t.is(res.status, 200);
  const opened = await runAdmin(environment.env, ['merchant', 'open-live', merchantId]);
  t.is(opened.code, 0, opened.stderr);
  t.deepEqual(JSON.parse(opened.stdout), { merchant: { id: merchantId, live_enabled: true } });
});

test.serial('the admin CLI answers mistakes with a JSON error and a non-zero exit', async (t) => {
  const unknown = await runAdmin(environment.env, ['merchant', 'open-live', 'mch_nobody']);
  t.is(unknown.code, 1);
  t.is(jsonAt(JSON.parse(unknown.stderr.split('\n')[0]), 'error', 'code'), 'resource_not_found');
  const usage = await runAdmin(environment.env, ['merchant', 'explode']);
  t.is(usage.code, 2);
  const weak = await runAdmin(environment.env, ['merchant', 'create', '--name', 'X', '--email', 'x@example.com', '--password', 'short']);
  t.is(weak.code, 1);
  t.like(JSON.parse(weak.stderr.split('\n')[0]), { error: { code: 'invalid_parameter', param: 'password' } });
  t.false(weak.stderr.includes('short'));
});

test.serial('logs name routes, never keys or tokens', async (t) => {
  const logLines = service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  t.true(logLines.some((line) => line.includes('"route":"/v1/payment_intents"')));
  t.false(
    logLines.some((line) => line.includes(demoKey.slice(16))),
    'the API key appears in a log line',
  );
  t.false(
    logLines.some((line) => /\/c\/[A-Za-z0-9_-]{43}/.test(line)),
    'a checkout token appears in a log line',
  );
});

test.serial('SIGTERM stops the service cleanly', async (t) => {
  t.is(await service.stop(), 0);
});
