import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import { CryptoRandomSource } from '@payments/node-runtime';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { KnexSimulatorOrderBook } from '../src/knex-simulator-order-book';
import { CALLBACK_ATTEMPTS, SimulatorPaymentChannel } from '../src/simulator-payment-channel';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver';

const clock = new FakeClock(new Date());
let database: TestDatabase;
let receiver: CallbackReceiver;
/** Every callback that reached the receiver, by order id, with the status it was answered. */
const arrivals: Array<{ orderId: string; body: Record<string, unknown>; answered: number }> = [];
/** How the receiver answers the callbacks of an order: the next statuses, then 200. */
const script = new Map<string, number[]>();
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

test.before(async () => {
  database = await createTestDatabase();
  receiver = await startCallbackReceiver((raw) => {
    const body: unknown = JSON.parse(raw);
    if (!isRecord(body)) throw new Error('A callback body is a JSON object.');
    const orderId = String(body.order_id ?? body.id);
    const answered = script.get(orderId)?.shift() ?? 200;
    arrivals.push({ orderId, body, answered });
    return { status: answered, body: '{}' };
  });
});
test.after.always(async () => {
  receiver?.close();
  await database?.destroy();
});

const RETRY_MS = 1000;
const sim = () =>
  new SimulatorPaymentChannel(new KnexSimulatorOrderBook(database.knex), clock, new CryptoRandomSource(), {
    callbackSecret: Buffer.alloc(32, 3),
    callbackRetryMs: RETRY_MS,
  });

let n = 0;
async function place(channel: SimulatorPaymentChannel, amount: number): Promise<string> {
  n += 1;
  const placed = await channel.placeOrder({
    mode: 'test',
    reference: `pa_RETRY${n}${Date.now()}`,
    amount,
    currency: 'THB',
    paymentMethod: 'promptpay',
    callbackUrl: receiver.url,
    expiresAt: new Date(clock.now().getTime() + 3600_000),
  });
  if (placed.outcome !== 'placed') throw new Error('not placed');
  return placed.channelOrderId;
}
const arrived = (orderId: string) => arrivals.filter((arrival) => arrival.orderId === orderId);

test.serial('a magic outcome the service refuses (its attempt not committed yet) is delivered on a later tick, once', async (t) => {
  const channel = sim();
  const orderId = await place(channel, 10001);
  script.set(orderId, [404]);
  await channel.tick();
  t.deepEqual(
    arrived(orderId).map((a) => a.answered),
    [404],
  );
  await channel.tick();
  t.is(arrived(orderId).length, 1, 'not before its retry time');
  clock.advance(RETRY_MS);
  await channel.tick();
  t.deepEqual(
    arrived(orderId).map((a) => a.answered),
    [404, 200],
  );
  t.like(arrived(orderId)[1].body, { id: orderId, status: 'paid' });
  clock.advance(60_000);
  await channel.tick();
  t.is(arrived(orderId).length, 2, 'a delivered callback is not sent again');
});

test.serial('a worker that dies after claiming a due magic outcome leaves it due again once its lease runs out', async (t) => {
  const book = new KnexSimulatorOrderBook(database.knex);
  const channel = new SimulatorPaymentChannel(book, clock, new CryptoRandomSource(), {
    callbackSecret: Buffer.alloc(32, 3),
    callbackRetryMs: RETRY_MS,
    callbackTimeoutMs: 2000,
  });
  const orderId = await place(channel, 10001);
  // The dying worker: it claims the order, then nothing more (SIGKILL before recording the outcome).
  const claimed = await book.claimDue(clock.now(), 100, new Date(clock.now().getTime() + 3000));
  t.true(claimed.some((order) => order.id === orderId));
  await channel.tick();
  t.is(arrived(orderId).length, 0, 'leased to the dead worker');
  clock.advance(3000);
  await channel.tick();
  t.deepEqual(
    arrived(orderId).map((a) => a.answered),
    [200],
  );
  t.like(arrived(orderId)[0].body, { id: orderId, status: 'paid' });
  clock.advance(60_000);
  await channel.tick();
  t.is(arrived(orderId).length, 1, 'reported once');
});

test.serial(`a callback refused every time is tried ${CALLBACK_ATTEMPTS} times with growing delays, then left to the reconciler`, async (t) => {
  const channel = sim();
  const orderId = await place(channel, 10002);
  script.set(
    orderId,
    Array.from({ length: 20 }, () => 503),
  );
  await channel.tick();
  const tries: number[] = [clock.now().getTime()];
  for (let step = 0; step < 40; step++) {
    clock.advance(RETRY_MS / 2);
    const before = arrived(orderId).length;
    await channel.tick();
    if (arrived(orderId).length > before) tries.push(clock.now().getTime());
  }
  t.is(arrived(orderId).length, CALLBACK_ATTEMPTS);
  const gaps = tries.slice(1).map((at, i) => at - tries[i]);
  t.deepEqual(gaps, [1000, 2000, 4000, 8000]);
  t.like(await channel.queryOrder('test', orderId), { status: 'failed', failureCode: 'insufficient_funds' }, "the reconciler's query still answers");
});

test.serial('a simulated outcome whose callback failed is delivered by a later tick, and a retry of its call is recognised', async (t) => {
  const channel = sim();
  const orderId = await place(channel, 7000);
  script.set(orderId, [500]);
  await t.throwsAsync(channel.simulate('test', orderId, { status: 'paid' }, 'key-a'), { code: 'api_error' });
  t.like(await channel.queryOrder('test', orderId), { status: 'paid' }, 'the outcome is recorded though its callback failed');
  t.false(await channel.confirmSimulation('test', orderId, { kind: 'payment', outcome: { status: 'paid' } }, 'key-b'));
  t.false(await channel.confirmSimulation('test', orderId, { kind: 'payment', outcome: { status: 'failed', failureCode: 'payer_cancelled' } }, 'key-a'));
  t.is(arrived(orderId).length, 1);
  clock.advance(RETRY_MS);
  await channel.tick();
  t.deepEqual(
    arrived(orderId).map((a) => a.answered),
    [500, 200],
  );
  // Delivered already: the retry of the call is recognised and sends nothing more.
  t.true(await channel.confirmSimulation('test', orderId, { kind: 'payment', outcome: { status: 'paid' } }, 'key-a'));
  t.is(arrived(orderId).length, 2);
});

test.serial('confirming a simulation whose callback never landed delivers it first; a newer outcome retires an older undelivered one', async (t) => {
  const channel = sim();
  const orderId = await place(channel, 7100);
  script.set(orderId, [500]);
  await t.throwsAsync(channel.simulate('test', orderId, { status: 'processing' }, 'key-p'));
  t.true(await channel.confirmSimulation('test', orderId, { kind: 'payment', outcome: { status: 'processing' } }, 'key-p'));
  t.deepEqual(
    arrived(orderId).map((a) => a.answered),
    [500, 200],
  );

  const other = await place(channel, 7200);
  script.set(other, [500]);
  await t.throwsAsync(channel.simulate('test', other, { status: 'processing' }));
  await channel.simulate('test', other, { status: 'paid' });
  clock.advance(60_000);
  await channel.tick();
  t.deepEqual(
    arrived(other).map((a) => a.body.status),
    ['processing', 'paid'],
    'the stale processing callback is not sent again',
  );
});

test.serial('a dispute notice the service refused is delivered on a later tick, and its call recognised', async (t) => {
  const channel = sim();
  const orderId = await place(channel, 8000);
  await channel.simulate('test', orderId, { status: 'paid' });
  script.set(orderId, [502]);
  await t.throwsAsync(channel.simulateDispute('test', orderId, 'opened', 'key-d'), { code: 'api_error' });
  clock.advance(RETRY_MS);
  await channel.tick();
  const notices = arrived(orderId).filter((a) => a.body.type === 'dispute');
  t.deepEqual(
    notices.map((a) => a.answered),
    [502, 200],
  );
  t.like(notices[1].body, { type: 'dispute', status: 'opened', amount: 8000 });
  t.true(await channel.confirmSimulation('test', orderId, { kind: 'dispute', outcome: 'opened' }, 'key-d'));
  t.false(await channel.confirmSimulation('test', orderId, { kind: 'dispute', outcome: 'lost' }, 'key-d'));
  t.is(arrived(orderId).filter((a) => a.body.type === 'dispute').length, 2);
});

test.serial('a callback whose sender died mid-try is tried again once its lease ran out, not before', async (t) => {
  const channel = sim();
  const book = new KnexSimulatorOrderBook(database.knex);
  const orderId = await place(channel, 7300);
  const order = (await book.find(orderId))!;
  const now = clock.now();
  // What the simulate call wrote before its process died: the outcome and its callback, leased.
  await book.update(
    { ...order, status: 'paid', paidAt: now },
    {
      id: `scb_died${Date.now()}`,
      orderId,
      url: receiver.url,
      body: JSON.stringify({ id: orderId, reference: order.reference, status: 'paid', amount: 7300, currency: 'THB' }),
      attempts: 1,
      retryAt: new Date(now.getTime() + 11_000),
      created: now,
    },
  );
  clock.advance(5000);
  await channel.tick();
  t.is(arrived(orderId).length, 0, 'the try may still be under way');
  clock.advance(6000);
  await channel.tick();
  t.deepEqual(
    arrived(orderId).map((a) => [a.body.status, a.answered]),
    [['paid', 200]],
  );
});
