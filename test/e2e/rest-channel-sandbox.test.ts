import { createHmac } from 'node:crypto';
import test from 'ava';
import { jsonAt, textAt } from '../fixtures';
import { printedDemoKey, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';
import { startSandbox, type SandboxProcess } from './sandbox-process';

/**
 * The rest channel end to end: the channel sandbox and the service as real processes, the
 * service configured with PAYMENTS_REST_CHANNEL_TEST_* pointing at the sandbox. The sandbox's
 * payer endpoint pays the order; the sandbox calls the service back over HTTP; the service
 * confirms by querying the sandbox, and the worker learns the settlement the same way.
 */

const SANDBOX_KEY = 'sk_sandbox_e2e_0123456789';
const SANDBOX_SECRET = 'cbs_sandbox_e2e_secret_0123456789';

let environment: ServiceEnvironment;
let sandbox: SandboxProcess;
let service: RunningService;
let key: string;

test.before(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_KEY, callbackSecret: SANDBOX_SECRET, settleAfterMs: 500 });
  environment = await serviceEnvironment();
  service = await startService({
    ...environment.env,
    PAYMENTS_REST_CHANNEL_TEST_URL: sandbox.url,
    PAYMENTS_REST_CHANNEL_TEST_KEY: SANDBOX_KEY,
    PAYMENTS_REST_CHANNEL_TEST_SECRET: SANDBOX_SECRET,
  });
  key = printedDemoKey(service);
});

test.after.always(async () => {
  await service?.stop();
  await sandbox?.stop();
  await environment?.cleanup();
});

let idempotencyKeys = 0;

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; json: unknown }> {
  const method = init.method ?? 'GET';
  const res = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === 'POST' ? { 'idempotency-key': `e2e-rest-${Date.now()}-${++idempotencyKeys}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json: unknown = await res.json();
  return { status: res.status, json };
}

async function pollIntent(id: string, status: string, timeoutMs = 20_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = {};
  while (Date.now() < deadline) {
    last = (await call(`/v1/payment_intents/${id}`)).json;
    if (jsonAt(last, 'status') === status) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`intent ${id} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

test.serial('a payment through the rest channel: placed at the sandbox, simulate refused, paid by the payer, confirmed, settled', async (t) => {
  const intent = await call('/v1/payment_intents', {
    method: 'POST',
    body: { amount: 12345, currency: 'THB', merchant_order_id: `e2e-rest-${Date.now()}`, channel_preference: 'rest' },
  });
  t.is(intent.status, 201, JSON.stringify(intent.json));
  const intentId = textAt(intent.json, 'id');

  const attempt = await call(`/v1/payment_intents/${intentId}/attempts`, { method: 'POST', body: { payment_method: 'promptpay', channel: 'rest' } });
  t.is(attempt.status, 201, JSON.stringify(attempt.json));
  t.like(attempt.json, { object: 'payment_attempt', status: 'pending', channel: 'rest', amount: 12345, currency: 'THB' });
  t.is(jsonAt(attempt.json, 'next_action', 'type'), 'qr_code');
  // The payer scans the QR: the sandbox's QR payload names its order (docs/channels/rest.md, the sandbox).
  const qr = /^SANDBOXQR\|(ord_[0-9a-f]+)\|12345\|THB$/.exec(String(jsonAt(attempt.json, 'next_action', 'qr_data')));
  const orderId = qr?.[1];
  t.truthy(orderId, 'the QR the sandbox issued reaches the merchant');
  t.is(jsonAt((await call(`/v1/payment_intents/${intentId}`)).json, 'status'), 'requires_payment');

  const simulated = await call(`/v1/test/payment_intents/${intentId}/simulate`, { method: 'POST', body: { outcome: 'succeeded' } });
  t.is(simulated.status, 409);
  t.is(jsonAt(simulated.json, 'error', 'code'), 'simulation_unsupported');

  const paid = await fetch(`${sandbox.url}/sandbox/orders/${orderId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(paid.status, 200);
  const payment: unknown = await paid.json();
  t.is(jsonAt(payment, 'order', 'status'), 'paid');
  t.is(jsonAt(payment, 'callback', 'delivered'), true, `the service refused the sandbox's callback: HTTP ${String(jsonAt(payment, 'callback', 'status'))}`);

  const succeeded = await pollIntent(intentId, 'succeeded');
  t.is(jsonAt(succeeded, 'amount'), 12345);
  const attempts = await call(`/v1/payment_intents/${intentId}/attempts`);
  t.like(jsonAt(attempts.json, 'data', 0), { id: jsonAt(attempt.json, 'id'), status: 'succeeded', channel: 'rest' });

  const settled = await pollIntent(intentId, 'channel_settled');
  t.is(jsonAt(settled, 'id'), intentId);
});

test.serial('the service refuses callbacks to the rest route that the sandbox did not sign', async (t) => {
  const body = JSON.stringify({ id: 'ord_0000', reference: 'att_NOPE', status: 'paid', amount: 12345, currency: 'THB' });
  const post = (headers: Record<string, string>): Promise<Response> =>
    fetch(`${service.baseUrl}/channels/rest/callback/test`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const t0 = Math.floor(Date.now() / 1000);
  const unsigned = await post({});
  t.is(unsigned.status, 401);
  const forged = await post({ 'channel-signature': `t=${t0},v1=${createHmac('sha256', 'not-the-secret-0123456789').update(`${t0}.${body}`).digest('hex')}` });
  t.is(forged.status, 401);
  const stale = await post({
    'channel-signature': `t=${t0 - 600},v1=${createHmac('sha256', SANDBOX_SECRET)
      .update(`${t0 - 600}.${body}`)
      .digest('hex')}`,
  });
  t.is(stale.status, 401);
  // Correctly signed but about no order of ours: changes nothing.
  const unknown = await post({ 'channel-signature': `t=${t0},v1=${createHmac('sha256', SANDBOX_SECRET).update(`${t0}.${body}`).digest('hex')}` });
  t.is(unknown.status, 404);
  t.false(service.output().includes(SANDBOX_SECRET) || service.output().includes(SANDBOX_KEY), 'the service logged a channel secret');
});
