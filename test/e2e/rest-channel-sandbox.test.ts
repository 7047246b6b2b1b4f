import { createHmac } from 'node:crypto';
import test from 'ava';
import { jsonAt, listAt, numberAt, textAt } from '../fixtures';
import { printedDemoKey, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';
import { startSandbox, type SandboxProcess } from './sandbox-process';

/**
 * The rest channel end to end: the channel sandbox and the service as real processes, the
 * service configured with PAYMENTS_REST_CHANNEL_TEST_* pointing at the sandbox. The sandbox's
 * payer endpoint pays the order; the sandbox calls the service back over HTTP; the service
 * confirms by querying the sandbox, and the worker learns the settlement the same way. Refunds
 * go the same road: placed at the sandbox, reported there, noticed to the service, queried.
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

/** The intent the first test pays and sees settled; the refund test gives part of it back. */
let settledIntentId: string | undefined;

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

/** Reads `path` until its `status` is `status`; `what` names it in the failure. */
async function pollStatus(path: string, status: string, what: string, timeoutMs = 20_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = {};
  while (Date.now() < deadline) {
    last = (await call(path)).json;
    if (jsonAt(last, 'status') === status) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

const pollIntent = (id: string, status: string): Promise<unknown> => pollStatus(`/v1/payment_intents/${id}`, status, `intent ${id}`);
const pollRefund = (id: string, status: string): Promise<unknown> => pollStatus(`/v1/refunds/${id}`, status, `refund ${id}`);

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
  settledIntentId = intentId;
});

/** Everything the merchant holds, available and pending: a release moves money between them, a refund takes it out. */
async function balanceTotal(): Promise<number> {
  const balance = (await call('/v1/balance')).json;
  return ['available', 'pending'].flatMap((bucket) => listAt(balance, bucket)).reduce((sum: number, entry) => sum + numberAt(entry, 'amount'), 0);
}

/** The sandbox's log lines about one of its refunds (it logs our reference when the refund is placed). */
function sandboxRefundLines(reference: string): unknown[] {
  const lines = sandbox
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line): unknown => JSON.parse(line));
  const placed = lines.find((line) => jsonAt(line, 'msg') === 'refund placed' && jsonAt(line, 'reference') === reference);
  return placed === undefined ? [] : lines.filter((line) => jsonAt(line, 'id') === jsonAt(placed, 'id'));
}

test.serial(
  'refunds through the rest channel: placed at the sandbox, its signed notice taken, succeeded; a declined one failed and the balance restored',
  async (t) => {
    const intentId = settledIntentId;
    if (!intentId) return t.fail('the payment test did not leave a settled intent');

    const created = await call('/v1/refunds', { method: 'POST', body: { payment_intent: intentId, amount: 4000, reason: 'requested_by_customer' } });
    t.is(created.status, 201, JSON.stringify(created.json));
    t.like(created.json, { object: 'refund', status: 'pending', payment_intent: intentId, amount: 4000, currency: 'THB' });
    const refundId = textAt(created.json, 'id');
    const succeeded = await pollRefund(refundId, 'succeeded');
    t.is(typeof jsonAt(succeeded, 'succeeded_at'), 'string');
    t.is(jsonAt((await call(`/v1/payment_intents/${intentId}`)).json, 'amount_refunded'), 4000);
    const deadline = Date.now() + 10_000;
    while (!sandboxRefundLines(refundId).some((line) => jsonAt(line, 'msg') === 'callback delivered') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    t.like(
      sandboxRefundLines(refundId).find((line) => jsonAt(line, 'msg') === 'callback delivered'),
      { status: 'succeeded', http_status: 200 },
      `the service did not take the sandbox's refund notice:\n${sandbox.output()}`,
    );

    const before = await balanceTotal();
    // The sandbox fails refund amounts ending in 06 with channel_declined.
    const declined = await call('/v1/refunds', { method: 'POST', body: { payment_intent: intentId, amount: 1006 } });
    t.is(declined.status, 201, JSON.stringify(declined.json));
    t.true(['pending', 'failed'].includes(String(jsonAt(declined.json, 'status'))));
    t.true((await balanceTotal()) < before || jsonAt(declined.json, 'status') === 'failed', 'a pending refund holds its debit');
    const failed = await pollRefund(textAt(declined.json, 'id'), 'failed');
    t.is(jsonAt(failed, 'failure_code'), 'channel_declined');
    t.is(await balanceTotal(), before, 'the failed refund gave its debit back');
    t.is(jsonAt((await call(`/v1/payment_intents/${intentId}`)).json, 'amount_refunded'), 4000);

    const events = listAt((await call(`/v1/events?limit=50`)).json, 'data').map((event) => [jsonAt(event, 'type'), jsonAt(event, 'data', 'id')]);
    for (const expected of [
      ['refund.created', refundId],
      ['refund.succeeded', refundId],
      ['refund.failed', textAt(declined.json, 'id')],
    ]) {
      t.true(
        events.some(([type, id]) => type === expected[0] && id === expected[1]),
        `no ${expected[0]} event for ${expected[1]}`,
      );
    }
  },
);

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
