import test from 'ava';
import { OtplibOneTimeCodes } from '@payments/otp';
import { jsonAt, listAt, numberAt, textAt } from '../fixtures';
import { createMerchantWithAdmin, runAdmin, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';
import { startSandbox, startTlsFront, type SandboxProcess, type TlsFront } from './sandbox-process';

/**
 * One merchant's 1 IDR payment must not stop everyone's money. A merchant settling in THB pays
 * 1 IDR with alipay_plus on the simulator: at the channel's settlement it converts to 0 THB. The
 * service (`npm start`: API and worker in one process, a 200 ms tick, no settlement delay) must
 * still take every other merchant's payments to `channel_settled` and `available` — a test one in
 * THB, a test one in SGD, and a live one whose payment goes through the rest channel to the
 * channel sandbox behind TLS — and pay a settlement out.
 */

const SANDBOX_KEY = 'sk_sandbox_hostile_0123456789';
const SANDBOX_SECRET = 'cbs_sandbox_hostile_secret_0123456789';
const PASSWORD = 'correct horse battery staple';

let sandbox: SandboxProcess;
let front: TlsFront;
let environment: ServiceEnvironment;
let service: RunningService;

test.before(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_KEY, callbackSecret: SANDBOX_SECRET, settleAfterMs: 200 });
  front = await startTlsFront(sandbox.url);
  environment = await serviceEnvironment();
  service = await startService({
    ...environment.env,
    PAYMENTS_TICK_MS: '200',
    PAYMENTS_REST_CHANNEL_LIVE_URL: front.url,
    PAYMENTS_REST_CHANNEL_LIVE_KEY: SANDBOX_KEY,
    PAYMENTS_REST_CHANNEL_LIVE_SECRET: SANDBOX_SECRET,
    NODE_EXTRA_CA_CERTS: front.caFile,
  });
});

test.after.always(async () => {
  await service?.stop();
  await front?.close();
  await sandbox?.stop();
  await environment?.cleanup();
});

let requests = 0;
/** Every answer the test saw; none may be a 5xx. */
const statuses: Array<{ path: string; status: number }> = [];

async function call(
  path: string,
  init: { method?: string; key?: string; cookie?: string; body?: unknown } = {},
): Promise<{ status: number; json: unknown; cookie?: string }> {
  const method = init.method ?? 'GET';
  const res = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(method === 'POST' && init.key ? { 'idempotency-key': `hostile-${Date.now()}-${++requests}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  statuses.push({ path: `${method} ${path}`, status: res.status });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  const json: unknown = await res.json();
  return { status: res.status, json, ...(cookie ? { cookie } : {}) };
}

interface Shop {
  readonly id: string;
  readonly email: string;
  readonly testKey: string;
}

async function createShop(name: string, currency: string): Promise<Shop> {
  const options = ['--settlement-currency', currency, '--settlement-delay-days', '0', '--schedule', 'manual'];
  const { id, email, testApiKey } = await createMerchantWithAdmin(service.env, { name, password: PASSWORD }, options);
  return { id, email, testKey: testApiKey };
}

/** Live mode the way an operator and a merchant open it: the admin CLI, then a live key from the dashboard. */
async function openLive(shop: Shop): Promise<string> {
  const opened = await runAdmin(service.env, ['merchant', 'open-live', shop.id]);
  if (opened.code !== 0) throw new Error(`open-live: ${opened.stderr}`);
  const claimed = await call('/dashboard/v1/mfa', { method: 'POST', body: { email: shop.email, password: PASSWORD } });
  if (claimed.status !== 200) throw new Error(`mfa claim: ${JSON.stringify(claimed.json)}`);
  const code = new OtplibOneTimeCodes().codeAt(textAt(claimed.json, 'secret'), new Date());
  const session = await call('/dashboard/v1/session', { method: 'POST', body: { email: shop.email, password: PASSWORD, code } });
  if (session.status !== 200 || !session.cookie) throw new Error(`sign-in: ${JSON.stringify(session.json)}`);
  const key = await call('/dashboard/v1/api_keys', { method: 'POST', cookie: session.cookie, body: { mode: 'live', name: 'e2e' } });
  if (key.status !== 201) throw new Error(`live key: ${JSON.stringify(key.json)}`);
  return textAt(key.json, 'secret');
}

/** An intent and its attempt; answers the intent id and the attempt. */
async function payment(key: string, amount: number, currency: string, method: string): Promise<{ id: string; attempt: unknown }> {
  const intent = await call('/v1/payment_intents', {
    method: 'POST',
    key,
    body: { amount, currency, merchant_order_id: `hostile-${Date.now()}-${++requests}` },
  });
  if (intent.status !== 201) throw new Error(`create ${amount} ${currency}: ${JSON.stringify(intent.json)}`);
  const id = textAt(intent.json, 'id');
  const attempt = await call(`/v1/payment_intents/${id}/attempts`, { method: 'POST', key, body: { payment_method: method } });
  if (attempt.status !== 201) throw new Error(`attempt ${method}: ${JSON.stringify(attempt.json)}`);
  return { id, attempt: attempt.json };
}

async function simulateSuccess(key: string, id: string): Promise<void> {
  const simulated = await call(`/v1/test/payment_intents/${id}/simulate`, { method: 'POST', key, body: { outcome: 'succeeded' } });
  if (simulated.status !== 200) throw new Error(`simulate: ${JSON.stringify(simulated.json)}`);
}

/** Polls until `done` holds, or fails with the last thing seen. */
async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${timeoutMs / 1000} s; last seen ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  return last;
}

function available(balance: unknown, currency: string): number {
  const money = listAt(balance, 'available').find((entry) => jsonAt(entry, 'currency') === currency);
  return money === undefined ? 0 : numberAt(money, 'amount');
}

test.serial("a test payment of 1 IDR settling in THB leaves every other merchant's payments, live included, settling, released and paid out", async (t) => {
  const hostile = await createShop('Hostile THB', 'THB');
  const thb = await createShop('Ordinary THB', 'THB');
  const sgd = await createShop('Ordinary SGD', 'SGD');
  const liveShop = await createShop('Ordinary live', 'THB');
  const liveKey = await openLive(liveShop);

  // The opening bug: 1 IDR by alipay_plus, simulated paid, converting to 0 THB when the channel settles.
  const tiny = await payment(hostile.testKey, 1, 'IDR', 'alipay_plus');
  await simulateSuccess(hostile.testKey, tiny.id);
  // Let the worker meet it first: from now on it is the oldest payment waiting for its channel report.
  await new Promise((r) => setTimeout(r, 1_000));

  const thbPayment = await payment(thb.testKey, 10_000, 'THB', 'promptpay');
  await simulateSuccess(thb.testKey, thbPayment.id);
  const sgdPayment = await payment(sgd.testKey, 2_500, 'SGD', 'paynow');
  await simulateSuccess(sgd.testKey, sgdPayment.id);
  const livePayment = await payment(liveKey, 20_000, 'THB', 'promptpay');
  t.is(jsonAt(livePayment.attempt, 'channel'), 'rest', 'live payments go through the rest channel');
  // The payer pays at the sandbox; its signed callback reaches the service, which confirms by query.
  const orderId = /^SANDBOXQR\|(ord_[0-9a-f]+)\|/.exec(String(jsonAt(livePayment.attempt, 'next_action', 'qr_data')))?.[1];
  t.truthy(orderId, 'the sandbox issued the QR');
  const paid = await fetch(`${sandbox.url}/sandbox/orders/${orderId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(paid.status, 200);

  const nets = new Map<string, number>();
  for (const [key, id, currency] of [
    [thb.testKey, thbPayment.id, 'THB'],
    [sgd.testKey, sgdPayment.id, 'SGD'],
    [liveKey, livePayment.id, 'THB'],
  ] as const) {
    const settled = await eventually(
      `${id} reaching channel_settled`,
      async () => (await call(`/v1/payment_intents/${id}`, { key })).json,
      (intent) => jsonAt(intent, 'status') === 'channel_settled',
    );
    t.like(settled, { status: 'channel_settled', net: { currency } });
    // No settlement delay: released on the same or the next tick, so it shows as available.
    const net = numberAt(settled, 'net', 'amount');
    const balance = await eventually(
      `${id}'s money becoming available`,
      async () => (await call('/v1/balance', { key })).json,
      (money) => available(money, currency) >= net,
    );
    t.is(available(balance, currency), net);
    nets.set(id, net);
  }

  // And money still leaves: a manual settlement of the THB merchant is paid (test payouts pay at once).
  const settlement = await call('/v1/settlements', { method: 'POST', key: thb.testKey });
  t.is(settlement.status, 201, JSON.stringify(settlement.json));
  const paidOut = await eventually(
    'the settlement being paid',
    async () => (await call(`/v1/settlements/${textAt(settlement.json, 'id')}`, { key: thb.testKey })).json,
    (st) => jsonAt(st, 'status') === 'paid',
  );
  t.like(paidOut, { status: 'paid', payments: 1, amount: { amount: nets.get(thbPayment.id), currency: 'THB' } });

  // Whatever became of the 1 IDR payment, asking about it is never a server error, and the ledger holds.
  const tinyNow = await call(`/v1/payment_intents/${tiny.id}`, { key: hostile.testKey });
  t.log(`the 1 IDR payment is ${String(jsonAt(tinyNow.json, 'status'))}, net ${JSON.stringify(jsonAt(tinyNow.json, 'net'))}`);
  const verified = await runAdmin(service.env, ['ledger', 'verify']);
  t.is(verified.code, 0, verified.stdout);
  t.deepEqual(
    statuses.filter((seen) => seen.status >= 500),
    [],
  );
});
