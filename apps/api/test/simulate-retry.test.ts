import test from 'ava';
import type { Knex } from 'knex';
import { CALLBACK_ATTEMPTS, SimulatorPaymentChannel } from '@payments/channel-simulator';
import { callbackUrl, newId, PaymentAttemptRepository, RandomSource, ReconcileAttempts, type PaymentAttempt } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { createKnex } from '@payments/storage-sql';
import { AppConfig } from '../src/container';
import type { Config } from '../src/config';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { apiObjectsAt, jsonAt } from './helpers/json';
import { runJob } from './helpers/worker-tick';

const clock = new FakeClock(new Date());
let t0: TestApp;
let knex: Knex;

test.before(async () => {
  t0 = await startTestApp({ clock });
  knex = createKnex(t0.app.get<Config>(AppConfig).databaseUrl);
});
test.after.always(async () => {
  await knex?.destroy();
  await t0?.close();
});

async function newShop(): Promise<{ shop: TestMerchant; flow: ReturnType<typeof paymentFlow> }> {
  const shop = await t0.merchant();
  return { shop, flow: paymentFlow(t0, shop.testKey) };
}

/**
 * What a process killed after the channel acted, before it stored its answer, leaves behind: the
 * key's claim still in flight, its lease run out, so a retry with the key runs the work again.
 */
async function crashBeforeTheAnswerWasStored(shop: TestMerchant, key: string): Promise<void> {
  const changed = await knex('idempotency_keys')
    .where({ merchant_id: shop.id, mode: 'test', idem_key: key })
    .update({ state: 'in_flight', response_status: null, response_body: null, locked_until: clock.now().getTime() - 1 });
  if (changed !== 1) throw new Error('no stored answer to lose');
}

test.serial("a simulate retried after a crash that followed the channel's action answers 200 with the intent; a new key is still 409", async (t) => {
  const { shop, flow } = await newShop();
  const intent = await flow.createIntent();
  await flow.attempt(intent.id);
  const key = unique();
  const first = await flow.simulate(intent.id, { outcome: 'succeeded' }, key);
  t.is(first.statusCode, 200);
  await crashBeforeTheAnswerWasStored(shop, key);

  const retry = await flow.simulate(intent.id, { outcome: 'succeeded' }, key);
  t.is(retry.statusCode, 200, retry.payload);
  t.like(retry.result, { id: intent.id, object: 'payment_intent', status: 'succeeded', amount: 10000, net: jsonAt(first.result, 'net') });
  t.is(retry.headers['idempotent-replayed'], undefined);
  // Its answer is remembered now like any other.
  const replay = await flow.simulate(intent.id, { outcome: 'succeeded' }, key);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.is(replay.payload, retry.payload);

  const fresh = await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.is(fresh.statusCode, 409);
  t.like(fresh.result, { error: { code: 'invalid_state_transition' } });
  t.deepEqual(await flow.eventTypes(intent.id), ['payment_intent.requires_payment', 'payment_intent.succeeded']);
});

test.serial('a dispute_opened or dispute_lost retried after such a crash answers 200 and acts once; a new key is still 409', async (t) => {
  const { shop, flow } = await newShop();
  const intent = await flow.createIntent();
  await flow.attempt(intent.id);
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  for (const outcome of ['dispute_opened', 'dispute_lost']) {
    const key = unique();
    t.is((await flow.simulate(intent.id, { outcome }, key)).statusCode, 200);
    await crashBeforeTheAnswerWasStored(shop, key);
    const retry = await flow.simulate(intent.id, { outcome }, key);
    t.is(retry.statusCode, 200, `${outcome}: ${retry.payload}`);
    t.like(retry.result, { id: intent.id, status: 'succeeded' });
    const fresh = await flow.simulate(intent.id, { outcome });
    t.is(fresh.statusCode, 409, outcome);
    t.like(fresh.result, { error: { code: 'invalid_state_transition' } });
  }
  const disputes = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').filter((dispute) => dispute.payment_intent === intent.id);
  t.is(disputes.length, 1);
  t.like(disputes[0], { status: 'lost', fee: { amount: 1500, currency: 'THB' } });
  t.like(await flow.get('/v1/balance'), {
    available: [{ amount: -1500, currency: 'THB' }],
    pending: [{ amount: 0, currency: 'THB' }],
    dispute_hold: [{ amount: 0, currency: 'THB' }],
  });
});

/**
 * What a process killed inside PlaceAttempt leaves behind: its first transaction committed the
 * attempt, the simulator took the order (a magic amount, reported on the next tick), and the second
 * transaction, which records the order on the attempt, never ran.
 */
async function placedButNotRecorded(shop: TestMerchant, intentId: string, amount: number): Promise<PaymentAttempt> {
  const config = t0.app.get<Config>(AppConfig);
  const now = clock.now();
  const attempt: PaymentAttempt = {
    id: newId(t0.app.get<RandomSource>(RandomSource), 'payment_attempt'),
    paymentIntentId: intentId,
    merchantId: shop.id,
    mode: 'test',
    status: 'pending',
    amount,
    currency: 'THB',
    paymentMethod: 'promptpay',
    channel: 'simulator',
    created: now,
    updated: now,
    version: 0,
  };
  await t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).insert(attempt);
  await t0.app.get(SimulatorPaymentChannel).placeOrder({
    mode: 'test',
    reference: attempt.id,
    amount,
    currency: 'THB',
    paymentMethod: 'promptpay',
    callbackUrl: callbackUrl({ callbackBaseUrl: config.channelCallbackUrl }, 'simulator', 'test'),
    expiresAt: new Date(now.getTime() + 3600_000),
  });
  return attempt;
}

test.serial('a magic outcome reported before its attempt recorded the order is refused, then delivered on a later tick', async (t) => {
  const { shop, flow } = await newShop();
  const intent = await flow.createIntent({ amount: 10001 });
  const simulator = t0.app.get(SimulatorPaymentChannel);
  const attempt = await placedButNotRecorded(shop, intent.id, 10001);
  await simulator.tick(); // the worker reports the magic outcome: our route does not know the order yet
  const resumed = await flow.attempt(intent.id); // a retry resumes the attempt and records its order
  t.like(resumed.result, { id: attempt.id, status: 'pending' });
  t.is((await flow.intent(intent.id)).status, 'requires_payment', 'the refused callback changed nothing');

  clock.advance(1000);
  await simulator.tick();
  t.is((await flow.intent(intent.id)).status, 'succeeded');
  t.like((await flow.attempts(intent.id))[0], { id: attempt.id, status: 'succeeded' });
});

test.serial("a magic outcome whose callback tries all ran out before the retry recorded the order: the reconciler's next pass applies it", async (t) => {
  const { shop, flow } = await newShop();
  const intent = await flow.createIntent({ amount: 10001 });
  const simulator = t0.app.get(SimulatorPaymentChannel);
  const attempt = await placedButNotRecorded(shop, intent.id, 10001);
  // The dead request holds the intent's lock and its key for a minute; the simulator's tries, 1, 2,
  // 4 and 8 s apart, are all refused well before the client's retry can resume the attempt.
  await simulator.tick();
  for (let tries = 1; tries < CALLBACK_ATTEMPTS; tries += 1) {
    clock.advance(1000 * 2 ** (tries - 1));
    await simulator.tick();
  }
  const callback: unknown = await knex('simulator_callbacks')
    .whereIn('order_id', knex('simulator_orders').select('id').where({ reference: attempt.id }))
    .first('attempts', 'retry_at', 'delivered_at');
  t.deepEqual(callback, { attempts: CALLBACK_ATTEMPTS, retry_at: null, delivered_at: null }, 'the simulator gave up on its callback');
  clock.advance(60_000);

  const resumed = await flow.attempt(intent.id);
  t.like(resumed.result, { id: attempt.id, status: 'pending' });
  await simulator.tick();
  t.is((await flow.intent(intent.id)).status, 'requires_payment', 'no callback comes again');
  t.like(await runJob(t0.app, ReconcileAttempts, 100), { progressed: 1 });
  t.is((await flow.intent(intent.id)).status, 'succeeded');
  t.like((await flow.attempts(intent.id))[0], { id: attempt.id, status: 'succeeded' });
});
