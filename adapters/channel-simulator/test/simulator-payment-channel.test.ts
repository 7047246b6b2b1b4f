import test from 'ava';
import { CoreError } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { CryptoRandomSource } from '@payments/node-runtime';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { KnexSimulatorOrderBook } from '../src/knex-simulator-order-book';
import { sign, SIGNATURE_HEADER } from '../src/callback-signature';
import { magicOutcome, SimulatorPaymentChannel } from '../src/simulator-payment-channel';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver';

const secret = Buffer.alloc(32, 7);
const clock = new FakeClock(new Date());
let database: TestDatabase;
let receiver: CallbackReceiver;
const received: Array<{ body: string; signature: string }> = [];

test.before(async () => {
  database = await createTestDatabase();
  receiver = await startCallbackReceiver((body, headers) => {
    received.push({ body, signature: String(headers[SIGNATURE_HEADER]) });
    return { status: 200, body: '{"received":true}' };
  });
});
test.after.always(async () => {
  receiver?.close();
  await database?.destroy();
});

const channel = (settleAfterMs = 1000) =>
  new SimulatorPaymentChannel(new KnexSimulatorOrderBook(database.knex), clock, new CryptoRandomSource(), { callbackSecret: secret, settleAfterMs });

let n = 0;
const order = (amount: number) => {
  n += 1;
  return {
    mode: 'test' as const,
    reference: `pa_TEST${n}${Date.now()}`,
    amount,
    currency: 'THB',
    paymentMethod: 'promptpay',
    callbackUrl: receiver.url,
    expiresAt: new Date(clock.now().getTime() + 3600_000),
  };
};

test.serial('placing twice with one reference is one order', async (t) => {
  const sim = channel();
  const request = order(1000);
  const [a, b] = await Promise.all([sim.placeOrder(request), sim.placeOrder(request)]);
  t.is(a.outcome, 'placed');
  t.deepEqual(a, b);
});

test.serial('magic amounts are read from the last two digits', (t) => {
  t.deepEqual(magicOutcome(10001), { status: 'paid' });
  t.deepEqual(magicOutcome(202), { status: 'failed', failureCode: 'insufficient_funds' });
  t.is(magicOutcome(10006), undefined);
  t.is(magicOutcome(10100), undefined);
});

test.serial('a magic outcome is reported once, signed, on the next tick', async (t) => {
  const sim = channel();
  const placed = await sim.placeOrder(order(5002));
  if (placed.outcome !== 'placed') return t.fail();
  received.length = 0;
  await Promise.all([sim.tick(), sim.tick()]);
  const mine = received.filter((r) => r.body.includes(placed.channelOrderId));
  t.is(mine.length, 1);
  const parsed = sim.verifyCallback('test', { [SIGNATURE_HEADER]: mine[0].signature }, mine[0].body);
  t.like(parsed, { kind: 'order', reportedStatus: 'failed' });
  const report = await sim.queryOrder('test', placed.channelOrderId);
  t.like(report, { status: 'failed', failureCode: 'insufficient_funds', amount: 5002 });
});

test.serial('a simulated amount is only a claim in the callback: the order book keeps the paid amount', async (t) => {
  const sim = channel();
  const placed = await sim.placeOrder(order(7000));
  if (placed.outcome !== 'placed') return t.fail();
  received.length = 0;
  await sim.simulate('test', placed.channelOrderId, { status: 'paid', amount: 1 });
  t.like(JSON.parse(received[0].body), { status: 'paid', amount: 1 });
  t.like(await sim.queryOrder('test', placed.channelOrderId), { status: 'paid', amount: 7000 });
});

test.serial('paid orders settle a tick after the payment, not in the same instant', async (t) => {
  const sim = channel(1000);
  const placed = await sim.placeOrder(order(8000));
  if (placed.outcome !== 'placed') return t.fail();
  await sim.simulate('test', placed.channelOrderId, { status: 'paid' });
  await sim.tick();
  t.is((await sim.queryOrder('test', placed.channelOrderId)).settledAt, undefined);
  clock.advance(1000);
  await sim.tick();
  t.truthy((await sim.queryOrder('test', placed.channelOrderId)).settledAt);
});

test.serial('callbacks with a forged, stale or missing signature, or a broken body, are refused', async (t) => {
  const sim = channel();
  const body = JSON.stringify({ id: 'sim_X', reference: 'pa_X', status: 'paid', amount: 1, currency: 'THB' });
  const now = Math.floor(clock.now().getTime() / 1000);
  t.throws(() => sim.verifyCallback('test', {}, body), { message: /signature/ });
  t.throws(() => sim.verifyCallback('test', { [SIGNATURE_HEADER]: sign(Buffer.alloc(32, 8), now, body) }, body), { message: /signature/ });
  t.throws(() => sim.verifyCallback('test', { [SIGNATURE_HEADER]: sign(secret, now - 301, body) }, body), { message: /signature/ });
  t.throws(() => sim.verifyCallback('test', { [SIGNATURE_HEADER]: sign(secret, now, body) }, `${body} `), { message: /signature/ });
  const truncated = body.slice(0, 20);
  t.throws(() => sim.verifyCallback('test', { [SIGNATURE_HEADER]: sign(secret, now, truncated) }, truncated), { message: /not JSON/ });
  t.like(sim.verifyCallback('test', { [SIGNATURE_HEADER]: sign(secret, now, body) }, body), { kind: 'order', reference: 'pa_X' });
});

test.serial('void fails a pending order but never a paid one', async (t) => {
  const sim = channel();
  const pending = await sim.placeOrder(order(9000));
  const paid = await sim.placeOrder(order(9100));
  if (pending.outcome !== 'placed' || paid.outcome !== 'placed') return t.fail();
  await sim.simulate('test', paid.channelOrderId, { status: 'paid' });
  await sim.voidOrder('test', pending.channelOrderId);
  await sim.voidOrder('test', paid.channelOrderId);
  t.like(await sim.queryOrder('test', pending.channelOrderId), { status: 'failed', failureCode: 'expired' });
  t.like(await sim.queryOrder('test', paid.channelOrderId), { status: 'paid' });
});

test.serial('a simulated dispute claims the whole ordered amount, is notified signed, and rules on the one opened before', async (t) => {
  const sim = channel();
  const placed = await sim.placeOrder(order(12345));
  if (placed.outcome !== 'placed') return t.fail();
  await t.throwsAsync(sim.simulateDispute('test', placed.channelOrderId, 'opened'), { instanceOf: CoreError, message: /paid orders only/ });
  await sim.simulate('test', placed.channelOrderId, { status: 'paid' });
  await t.throwsAsync(sim.simulateDispute('test', placed.channelOrderId, 'won'), { message: /no open dispute/ });

  received.length = 0;
  await sim.simulateDispute('test', placed.channelOrderId, 'opened');
  t.is(received.length, 1);
  const notice = sim.verifyCallback('test', { [SIGNATURE_HEADER]: received[0].signature }, received[0].body);
  if (notice.kind !== 'dispute') return t.fail();
  t.like(await sim.queryDispute('test', notice.channelDisputeId), {
    channelDisputeId: notice.channelDisputeId,
    channelOrderId: placed.channelOrderId,
    status: 'opened',
    amount: 12345,
    currency: 'THB',
  });
  await t.throwsAsync(sim.simulateDispute('test', placed.channelOrderId, 'opened'), { message: /already has an open dispute/ });

  await sim.submitDisputeEvidence('test', notice.channelDisputeId, { receipt: 'r-1' });
  t.is((await sim.queryDispute('test', notice.channelDisputeId)).status, 'under_review');
  await sim.simulateDispute('test', placed.channelOrderId, 'lost');
  t.is((await sim.queryDispute('test', notice.channelDisputeId)).status, 'lost');
  await t.throwsAsync(sim.submitDisputeEvidence('test', notice.channelDisputeId, { late: 'x' }), { message: /ruled/ });
  // A new dispute may open once the last one is ruled.
  await sim.simulateDispute('test', placed.channelOrderId, 'opened');
  t.is(received.length, 3);
});

test.serial('the statement lists paid orders, succeeded refunds and lost disputes once each, a second old, in order, page by page', async (t) => {
  const sim = channel();
  const drain = async (after?: string): Promise<{ lines: Awaited<ReturnType<typeof sim.statement>>['lines']; next: string | undefined }> => {
    const lines = [];
    let next = after;
    for (;;) {
      const page = await sim.statement('test', { ...(next === undefined ? {} : { after: next }), limit: 1 });
      lines.push(...page.lines);
      next = page.next;
      if (!page.hasMore) return { lines, next };
    }
  };
  clock.advance(2_000);
  const { next: start } = await drain();

  // Three orders paid in one instant (ties are broken by id), one left unpaid.
  const placed = [];
  for (const amount of [1_000, 2_000, 3_000, 4_000]) {
    const result = await sim.placeOrder(order(amount));
    if (result.outcome !== 'placed') return t.fail();
    placed.push(result.channelOrderId);
  }
  for (const id of placed.slice(0, 3)) await sim.simulate('test', id, { status: 'paid' });
  t.deepEqual((await drain(start)).lines, [], 'not listed while younger than a second');
  clock.advance(1_001);
  const paid = await drain(start);
  t.deepEqual(
    paid.lines.map((line) => [line.kind, line.channelId, line.amount, line.currency]),
    placed
      .slice(0, 3)
      .map((id, i) => ['payment', id, (i + 1) * 1_000, 'THB'])
      .sort((a, b) => (String(a[1]) < String(b[1]) ? -1 : 1)),
  );
  t.true(paid.lines.every((line) => line.reference.startsWith('pa_TEST')));

  // A refund that succeeds and one that fails; a dispute opened, and one lost.
  const refund = async (orderId: string, reference: string, amount: number) => {
    const result = await sim.placeRefund({ mode: 'test', reference, channelOrderId: orderId, amount, currency: 'THB', callbackUrl: receiver.url });
    if (result.outcome !== 'placed') throw new Error('refund refused');
    return result.channelRefundId;
  };
  const made = await refund(placed[0], `re_OK${Date.now()}`, 400);
  const failed = await refund(placed[1], `re_KO${Date.now()}`, 500);
  await sim.simulateRefund('test', made, { status: 'succeeded' });
  await sim.simulateRefund('test', failed, { status: 'failed', failureCode: 'channel_declined' });
  await sim.simulateDispute('test', placed[2], 'opened');
  await sim.simulateDispute('test', placed[1], 'opened');
  await sim.simulateDispute('test', placed[1], 'lost');
  clock.advance(1_001);
  const after = await drain(paid.next);
  t.deepEqual(
    after.lines.map((line) => [line.kind, line.amount]),
    [
      ['chargeback', 2_000],
      ['refund', 400],
    ],
  );
  const [chargeback, refunded] = after.lines;
  t.is(chargeback?.reference, chargeback?.channelId, "a chargeback's reference is the channel's dispute id");
  t.is(refunded?.channelId, made);
  t.deepEqual((await drain(after.next)).lines, [], 'nothing is listed twice');
  await t.throwsAsync(sim.statement('test', { after: 'nonsense', limit: 1 }), { instanceOf: CoreError, message: /cursor/ });
});
