import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { resolve } from 'node:path';
import test from 'ava';
import { RestPaymentChannel } from '@payments/channel-rest';
import { ChannelSandbox } from '../src';

/**
 * The rest adapter against a real sandbox on 127.0.0.1: the two were written separately from
 * docs/channels/rest.md, so each checks the other's reading of it.
 */

const API_KEY = 'sk_sandbox_test_0123456789';
const SECRET = 'cbs_sandbox_secret_0123456789';

interface ReceivedCallback {
  readonly headers: Record<string, string | undefined>;
  readonly rawBody: string;
}

/** Our side of the callbacks: records each one; answers the statuses queued in `failNext` first. */
class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  readonly failNext: number[] = [];
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const status = this.failNext.shift();
        if (status === undefined) this.received.push({ headers: flatten(req.headers), rawBody: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(status ?? 204).end();
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('The callback receiver is not listening on a port.');
    this.url = `http://127.0.0.1:${address.port}/channels/rest/callback`;
  }

  async waitFor(count: number, timeoutMs = 5_000): Promise<ReceivedCallback> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} callbacks, got ${this.received.length}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received[count - 1];
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.server.close(() => done());
      this.server.closeAllConnections();
    });
  }
}

function flatten(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : value]));
}

interface World {
  readonly sandbox: ChannelSandbox;
  readonly receiver: CallbackReceiver;
  readonly channel: RestPaymentChannel;
  readonly close: () => Promise<void>;
}

async function world(settleAfterMs = 300, refundAfterMs = 300): Promise<World> {
  const sandbox = new ChannelSandbox({ apiKey: API_KEY, callbackSecret: SECRET, settleAfterMs, refundAfterMs });
  const url = await sandbox.listen(0, '127.0.0.1');
  const receiver = new CallbackReceiver();
  await receiver.start();
  const channel = new RestPaymentChannel({ test: { baseUrl: url, apiKey: API_KEY, callbackSecret: SECRET }, timeoutMs: 2_000, retryBaseDelayMs: 10 });
  return {
    sandbox,
    receiver,
    channel,
    close: async () => {
      await sandbox.close();
      await receiver.close();
    },
  };
}

let references = 0;
function placeRequest(receiver: CallbackReceiver, overrides: Record<string, unknown> = {}) {
  return {
    mode: 'test' as const,
    reference: `att_SANDBOX${++references}`,
    amount: 12345,
    currency: 'THB',
    paymentMethod: 'promptpay',
    callbackUrl: receiver.url,
    expiresAt: new Date(Date.now() + 3_600_000),
    ...overrides,
  };
}

/** A POST to the sandbox's own pages (`/sandbox/…`): the desk's, or the payer's on an order. */
async function desk(sandboxUrl: string, path: string, body: unknown = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sandboxUrl}/sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  return { status: response.status, body: answer };
}

function payer(sandboxUrl: string, orderId: string, action: string, body: unknown = {}): Promise<{ status: number; body: unknown }> {
  return desk(sandboxUrl, `orders/${orderId}/${action}`, body);
}

test('place, query, pay: the signed callback verifies, the query says paid, then settled after SANDBOX_SETTLE_AFTER_MS', async (t) => {
  const w = await world(1_500); // settles 1.5 s after payment: room for a loaded machine between pay and query
  t.teardown(w.close);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail(`refused: ${placed.message}`);
  t.is(placed.nextAction.type, 'qr_code');
  t.truthy(placed.nextAction.qrData);

  const pending = await w.channel.queryOrder('test', placed.channelOrderId);
  t.is(pending.status, 'pending');
  t.is(pending.amount, 12345);

  const paid = await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  t.is(paid.status, 200);
  t.like(paid.body, { callback: { delivered: true } }, 'the payer endpoint waits for the callback delivery');
  const first = await w.receiver.waitFor(1);
  const callback = w.channel.verifyCallback('test', first.headers, first.rawBody);
  t.deepEqual(callback, { kind: 'order', channelOrderId: placed.channelOrderId, reference: pending.reference, reportedStatus: 'paid' });

  const confirmed = await w.channel.queryOrder('test', placed.channelOrderId);
  t.is(confirmed.status, 'paid');
  t.is(confirmed.settledAt, undefined);

  const settledCallback = await w.receiver.waitFor(2);
  t.like(w.channel.verifyCallback('test', settledCallback.headers, settledCallback.rawBody), { reportedStatus: 'paid' });
  const settled = await w.channel.queryOrder('test', placed.channelOrderId);
  t.true(settled.settledAt instanceof Date);
  t.true(settled.settledAt!.getTime() <= Date.now());
});

test("an order's callbacks echo the traceparent its create came with; an order created without one, or with a malformed one, sends none", async (t) => {
  const w = await world();
  t.teardown(w.close);
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const traced = new RestPaymentChannel({
    test: { baseUrl: w.sandbox.url, apiKey: API_KEY, callbackSecret: SECRET },
    timeoutMs: 2_000,
    traceHeaders: () => ({ traceparent }),
  });
  const placed = await traced.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail(`refused: ${placed.message}`);
  await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  t.is((await w.receiver.waitFor(1)).headers.traceparent, traceparent);
  for (const header of [undefined, 'not-a-trace-context']) {
    const channel = new RestPaymentChannel({
      test: { baseUrl: w.sandbox.url, apiKey: API_KEY, callbackSecret: SECRET },
      timeoutMs: 2_000,
      ...(header === undefined ? {} : { traceHeaders: () => ({ traceparent: header }) }),
    });
    const other = await channel.placeOrder(placeRequest(w.receiver));
    if (other.outcome !== 'placed') return t.fail(`refused: ${other.message}`);
    t.like((await payer(w.sandbox.url, other.channelOrderId, 'pay')).body, { callback: { delivered: true } });
    const callback = w.receiver.received.find((received) => received.rawBody.includes(other.channelOrderId));
    t.truthy(callback);
    t.is(callback?.headers.traceparent, undefined);
  }
});

test('create is idempotent on the reference; a conflicting repeat is a channel_error refusal', async (t) => {
  const w = await world();
  t.teardown(w.close);
  const request = placeRequest(w.receiver);
  const first = await w.channel.placeOrder(request);
  const again = await w.channel.placeOrder(request);
  t.is(first.outcome, 'placed');
  t.deepEqual(again, first);
  const conflicting = await w.channel.placeOrder({ ...request, amount: request.amount + 1 });
  t.like(conflicting, { outcome: 'refused', failureCode: 'channel_error' });
});

test('a wallet gets a redirect URL that shows the order to the payer', async (t) => {
  const w = await world();
  t.teardown(w.close);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver, { paymentMethod: 'gcash', currency: 'PHP' }));
  if (placed.outcome !== 'placed') return t.fail(placed.message);
  t.is(placed.nextAction.type, 'redirect');
  const page = await fetch(placed.nextAction.url!);
  t.is(page.status, 200);
  t.like(await page.json(), { id: placed.channelOrderId, status: 'pending', payment_method: 'gcash' });
});

test('the payer scans (processing) then fails: each change is called back and the query carries the failure code', async (t) => {
  const w = await world();
  t.teardown(w.close);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail(placed.message);

  t.is((await payer(w.sandbox.url, placed.channelOrderId, 'process')).status, 200);
  const processing = await w.receiver.waitFor(1);
  t.like(w.channel.verifyCallback('test', processing.headers, processing.rawBody), { reportedStatus: 'processing' });
  t.is((await w.channel.queryOrder('test', placed.channelOrderId)).status, 'processing');

  t.is((await payer(w.sandbox.url, placed.channelOrderId, 'fail', { failure_code: 'bogus' })).status, 400);
  t.is((await payer(w.sandbox.url, placed.channelOrderId, 'fail', { failure_code: 'risk_blocked' })).status, 200);
  const failed = await w.receiver.waitFor(2);
  t.like(w.channel.verifyCallback('test', failed.headers, failed.rawBody), { reportedStatus: 'failed' });
  t.like(await w.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'risk_blocked' });
  t.is((await payer(w.sandbox.url, placed.channelOrderId, 'pay')).status, 409, 'a failed order stays failed');
});

test('void: a pending order becomes failed/expired, a second void is accepted, a paid order cannot be voided', async (t) => {
  const w = await world(60_000);
  t.teardown(w.close);
  const pending = await w.channel.placeOrder(placeRequest(w.receiver));
  const paid = await w.channel.placeOrder(placeRequest(w.receiver));
  if (pending.outcome !== 'placed' || paid.outcome !== 'placed') return t.fail('not placed');

  await w.channel.voidOrder('test', pending.channelOrderId);
  t.like(await w.channel.queryOrder('test', pending.channelOrderId), { status: 'failed', failureCode: 'expired' });
  await t.notThrowsAsync(w.channel.voidOrder('test', pending.channelOrderId));
  t.is((await payer(w.sandbox.url, pending.channelOrderId, 'pay')).status, 409, 'a voided order cannot be paid');

  await payer(w.sandbox.url, paid.channelOrderId, 'pay');
  await t.throwsAsync(w.channel.voidOrder('test', paid.channelOrderId), { message: /already paid/ });
  t.is((await w.channel.queryOrder('test', paid.channelOrderId)).status, 'paid');
});

test('an order past its expires_at fails as expired and is called back', async (t) => {
  const w = await world();
  t.teardown(w.close);
  // Four seconds of life: enough for the placement itself to land before expiry on a loaded CI
  // machine (1.5 s was not: the sandbox refused the order as already expired).
  const expiresAt = new Date(Date.now() + 4_000);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver, { expiresAt }));
  if (placed.outcome !== 'placed') return t.fail(placed.message);
  const callback = await w.receiver.waitFor(1, 15_000);
  t.true(Date.now() >= expiresAt.getTime(), 'called back at expiry, not before');
  t.like(w.channel.verifyCallback('test', callback.headers, callback.rawBody), { reportedStatus: 'failed' });
  t.like(await w.channel.queryOrder('test', placed.channelOrderId), { status: 'failed', failureCode: 'expired' });
});

test('callback delivery is retried until our side answers 2xx', async (t) => {
  const w = await world(60_000);
  t.teardown(w.close);
  w.receiver.failNext.push(500, 503);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail(placed.message);
  const paid = await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  t.like(paid.body, { callback: { delivered: true, attempts: 3 } });
  t.is(w.receiver.received.length, 1);
});

test('the sandbox callbacks do not verify under another secret, and a wrong API key gets no order', async (t) => {
  const w = await world(60_000);
  t.teardown(w.close);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail(placed.message);
  await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  const callback = await w.receiver.waitFor(1);
  const stranger = new RestPaymentChannel({ test: { baseUrl: w.sandbox.url, apiKey: 'sk_wrong', callbackSecret: 'another-secret-0123456789' }, retries: 0 });
  t.throws(() => stranger.verifyCallback('test', callback.headers, callback.rawBody), { message: /signature/ });
  t.like(await stranger.placeOrder(placeRequest(w.receiver)), { outcome: 'refused', failureCode: 'channel_error' });
  await t.throwsAsync(stranger.queryOrder('test', placed.channelOrderId), { message: /HTTP 401/ });
});

test('a method that does not take the currency is refused (422) and recorded as a channel error', async (t) => {
  const w = await world();
  t.teardown(w.close);
  t.like(await w.channel.placeOrder(placeRequest(w.receiver, { currency: 'SGD' })), { outcome: 'refused', failureCode: 'channel_error' });
});

test('node dist/src/main.js logs its URL as a JSON line, serves, and stops on SIGTERM; without a key it refuses to start', async (t) => {
  const main = resolve(__dirname, '..', 'src', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH, SANDBOX_PORT: '0', SANDBOX_API_KEY: API_KEY, SANDBOX_CALLBACK_SECRET: SECRET, SANDBOX_SETTLE_AFTER_MS: '100' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + 10_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline) {
    const line = stdout.split('\n').find((l) => l.includes('"sandbox listening"'));
    const logged: unknown = line ? JSON.parse(line) : undefined;
    url = typeof logged === 'object' && logged !== null && 'url' in logged && typeof logged.url === 'string' ? logged.url : undefined;
    if (!url) await new Promise((r) => setTimeout(r, 25));
  }
  t.regex(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  t.is((await fetch(`${url}/health`)).status, 200);
  t.is((await fetch(`${url}/v1/orders/ord_x`)).status, 401);
  t.false(stdout.includes(API_KEY) || stdout.includes(SECRET), 'the sandbox logs no key or secret');
  child.kill('SIGTERM');
  t.is(await exited, 0);

  const refused = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, SANDBOX_PORT: '0' } });
  let stderr = '';
  refused.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  t.is(await new Promise<number | null>((done) => refused.once('exit', (code) => done(code))), 1);
  t.regex(stderr, /SANDBOX_API_KEY/);
});

test('disputes: the desk opens one on a paid order, the notice verifies, the query and evidence follow the protocol', async (t) => {
  const w = await world(60_000);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail();
  t.like(await desk(w.sandbox.url, `orders/${placed.channelOrderId}/dispute`), { status: 409, body: { error: { code: 'order_not_paid' } } });
  await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  const before = w.receiver.received.length;

  const opened = await desk(w.sandbox.url, `orders/${placed.channelOrderId}/dispute`, { reason: 'product_not_received' });
  t.is(opened.status, 200);
  t.like(opened.body, { callback: { delivered: true } });
  const notice = await w.receiver.waitFor(before + 1);
  const parsed = w.channel.verifyCallback('test', notice.headers, notice.rawBody);
  if (parsed.kind !== 'dispute') return t.fail();
  t.like(await w.channel.queryDispute('test', parsed.channelDisputeId), {
    channelOrderId: placed.channelOrderId,
    status: 'opened',
    amount: 12345,
    currency: 'THB',
    reason: 'product_not_received',
  });
  t.like(await desk(w.sandbox.url, `orders/${placed.channelOrderId}/dispute`), { status: 409, body: { error: { code: 'dispute_open' } } });

  await w.channel.submitDisputeEvidence('test', parsed.channelDisputeId, { receipt: 'r-1' });
  await w.channel.submitDisputeEvidence('test', parsed.channelDisputeId, { receipt: 'r-1' });
  t.is((await w.channel.queryDispute('test', parsed.channelDisputeId)).status, 'under_review');

  const lost = await desk(w.sandbox.url, `disputes/${parsed.channelDisputeId}/lost`);
  t.like(lost, { status: 200, body: { dispute: { status: 'lost' }, callback: { delivered: true } } });
  t.is((await w.channel.queryDispute('test', parsed.channelDisputeId)).status, 'lost');
  const closed = await t.throwsAsync(w.channel.submitDisputeEvidence('test', parsed.channelDisputeId, { late: 'x' }));
  t.regex(closed?.message ?? '', /ruled/);
  t.like(await desk(w.sandbox.url, `disputes/${parsed.channelDisputeId}/won`), { status: 409, body: { error: { code: 'dispute_closed' } } });
  await w.close();
});

test('refunds: placed against a paid order (idempotent), reported after refundAfterMs with a signed notice; 06 amounts fail; declines at place', async (t) => {
  // Long enough that the repeat, the conflict and the query all happen while the refund is pending, on a busy machine too.
  const w = await world(60_000, 2_500);
  t.teardown(w.close);
  const placed = await w.channel.placeOrder(placeRequest(w.receiver));
  if (placed.outcome !== 'placed') return t.fail();
  const refund = (reference: string, amount: number, channelOrderId = placed.channelOrderId) =>
    w.channel.placeRefund({ mode: 'test', reference, channelOrderId, amount, currency: 'THB', callbackUrl: w.receiver.url });

  t.like(await refund('re_UNPAID', 100), { outcome: 'refused', failureCode: 'channel_declined' }, 'an order not paid is not refunded');
  await payer(w.sandbox.url, placed.channelOrderId, 'pay');
  const before = w.receiver.received.length;

  const first = await refund('re_FIRST', 4000);
  if (first.outcome !== 'placed') return t.fail();
  t.deepEqual(await refund('re_FIRST', 4000), first, 'a repeat with the same reference is the same refund');
  await t.throwsAsync(refund('re_FIRST', 4001), { message: /HTTP 409/ });
  t.like(await w.channel.queryRefund('test', first.channelRefundId), {
    channelOrderId: placed.channelOrderId,
    reference: 're_FIRST',
    status: 'pending',
    amount: 4000,
    currency: 'THB',
  });

  const notice = await w.receiver.waitFor(before + 1);
  t.deepEqual(w.channel.verifyCallback('test', notice.headers, notice.rawBody), {
    kind: 'refund',
    channelRefundId: first.channelRefundId,
    reference: 're_FIRST',
  });
  t.like(await w.channel.queryRefund('test', first.channelRefundId), { status: 'succeeded' });

  const declined = await refund('re_SIXES', 5006);
  if (declined.outcome !== 'placed') return t.fail();
  await w.receiver.waitFor(before + 2);
  t.like(await w.channel.queryRefund('test', declined.channelRefundId), { status: 'failed', failureCode: 'channel_declined' });
  // The failed refund gave its amount back: 12345 - 4000 is left, and no more.
  t.like(await refund('re_TOO_MUCH', 8346), { outcome: 'refused', failureCode: 'channel_declined' });
  t.like(await refund('re_REST', 8345), { outcome: 'placed' });
  t.like(await refund('re_NO_ORDER', 100, 'ord_unknown'), { outcome: 'refused', failureCode: 'channel_declined' });
  await t.throwsAsync(w.channel.queryRefund('test', 'rfd_unknown'), { message: /HTTP 404/ });
});

test('statement: an order paid, a refund that succeeded and a dispute lost are listed once each, in order, page by page; failed refunds, open disputes and unpaid orders are not', async (t) => {
  const w = await world(60_000, 200);
  t.teardown(w.close);
  t.deepEqual((await w.channel.statement('test', { limit: 10 })).lines, [], 'an empty statement');
  const paidRequest = placeRequest(w.receiver, { amount: 20_000 });
  const paidOrder = await w.channel.placeOrder(paidRequest);
  const unpaidOrder = await w.channel.placeOrder(placeRequest(w.receiver));
  if (paidOrder.outcome !== 'placed' || unpaidOrder.outcome !== 'placed') return t.fail();
  await payer(w.sandbox.url, paidOrder.channelOrderId, 'pay');
  const refund = (reference: string, amount: number) =>
    w.channel.placeRefund({ mode: 'test', reference, channelOrderId: paidOrder.channelOrderId, amount, currency: 'THB', callbackUrl: w.receiver.url });
  const made = await refund('re_MADE', 3_000);
  const failing = await refund('re_FAILS', 1_006);
  if (made.outcome !== 'placed' || failing.outcome !== 'placed') return t.fail();
  for (const id of [made.channelRefundId, failing.channelRefundId]) {
    for (let tries = 0; (await w.channel.queryRefund('test', id)).status === 'pending'; tries += 1) {
      if (tries > 100) return t.fail('the refund was never reported');
      await new Promise((done) => setTimeout(done, 20));
    }
  }
  const opened = await desk(w.sandbox.url, `orders/${paidOrder.channelOrderId}/dispute`);
  const disputeId = textOf(opened.body, 'dispute', 'id');
  const first = await w.channel.statement('test', { limit: 10 });
  t.deepEqual(
    first.lines.map((line) => [line.kind, line.reference, line.channelId, line.amount, line.currency]),
    [
      ['payment', paidRequest.reference, paidOrder.channelOrderId, 20_000, 'THB'],
      ['refund', 're_MADE', made.channelRefundId, 3_000, 'THB'],
    ],
  );
  t.false(first.hasMore);
  t.true(first.asOf.getTime() <= Date.now());
  t.true(first.lines.every((line) => line.occurredAt instanceof Date));
  await desk(w.sandbox.url, `disputes/${disputeId}/lost`);

  // From the cursor on: only what is new; a page of one at a time says there is more.
  const next = await w.channel.statement('test', { after: first.next, limit: 1 });
  t.deepEqual(
    next.lines.map((line) => [line.kind, line.reference, line.channelId, line.amount]),
    [['chargeback', disputeId, disputeId, 20_000]],
    "a chargeback's reference is the channel's dispute id",
  );
  t.false(next.hasMore);
  const paged = await w.channel.statement('test', { limit: 1 });
  t.true(paged.hasMore);
  t.is(paged.lines.length, 1);
  t.deepEqual((await w.channel.statement('test', { after: next.next, limit: 10 })).lines, []);
  await t.throwsAsync(w.channel.statement('test', { after: 'not-a-cursor', limit: 10 }), { message: /HTTP 400/ });
});

function textOf(value: unknown, ...path: string[]): string {
  let at: unknown = value;
  for (const key of path) at = typeof at === 'object' && at !== null ? Object.entries(at).find(([name]) => name === key)?.[1] : undefined;
  if (typeof at !== 'string') throw new Error(`no text at ${path.join('.')}`);
  return at;
}
