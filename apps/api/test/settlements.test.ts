import test from 'ava';
import {
  API_CALLER,
  CreateManualSettlement,
  CreateScheduledSettlements,
  MerchantRepository,
  PaySettlements,
  type Settlement,
  type SettlementSchedule,
} from '@payments/core';
import { paymentFlow } from './helpers/payment-flow';
import { unique, type TestMerchant } from './helpers/test-app';
import { appOnFakeClock, runJob } from './helpers/worker-tick';
import { apiObjectAt, apiObjectsAt, jsonAt, listAt, numberAt, objectAt, textAt, type ApiObject, type JsonObject } from './helpers/json';

const { clock, app, tick } = appOnFakeClock();

/** One pass of the scheduled-settlement job: the batches it made for one merchant. */
async function scheduledBatchesOf(merchantId: string): Promise<Settlement[]> {
  const { outcomes } = await runJob(app().app, CreateScheduledSettlements, 100_000);
  return outcomes.flatMap(({ outcome }) => (typeof outcome === 'object' && outcome.merchantId === merchantId ? [outcome] : []));
}

async function merchantOn(schedule: SettlementSchedule): Promise<TestMerchant> {
  const shop = await app().merchant();
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(shop.id, { settlementSchedule: schedule });
  return shop;
}

/** Payments of `amounts`, paid, channel-settled and released: available funds. Returns their nets. */
async function releasedPayments(shop: TestMerchant, amounts: readonly number[]): Promise<number[]> {
  const flow = paymentFlow(app(), shop.testKey);
  const intents: ApiObject[] = [];
  for (const amount of amounts) {
    const intent = await flow.createIntent({ amount });
    await flow.attempt(intent.id);
    intents.push(apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result));
  }
  await tick();
  await tick();
  for (const intent of intents) t0Assert((await flow.advance(intent.id, 'release')).statusCode === 200, 'release advanced');
  await tick();
  return intents.map((intent) => numberAt(intent, 'net', 'amount'));
}

function t0Assert(condition: boolean, what: string): void {
  if (!condition) throw new Error(`setup failed: ${what}`);
}

const settle = (shop: TestMerchant, idempotencyKey: string = unique('settle'), key: string = shop.testKey) =>
  app().request({ method: 'POST', url: '/v1/settlements', key, idempotencyKey });

const thb = (amount: number): JsonObject[] => [{ amount, currency: 'THB' }];

test.serial('a merchant on a schedule may not ask: 403 forbidden, remembered under its key', async (t) => {
  const shop = await merchantOn('daily');
  await releasedPayments(shop, [10_000]);
  const key = unique('settle');
  const res = await settle(shop, key);
  t.is(res.statusCode, 403);
  t.like(res.result, { error: { code: 'forbidden' } });
  const again = await settle(shop, key);
  t.is(again.statusCode, 403);
  t.is(again.headers['idempotent-replayed'], 'true');
  t.deepEqual((await paymentFlow(app(), shop.testKey).get('/v1/settlements')).data, []);
});

test.serial('an Idempotency-Key is required', async (t) => {
  const shop = await merchantOn('manual');
  const res = await app().request({ method: 'POST', url: '/v1/settlements', key: shop.testKey });
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'idempotency_key_required' } });
});

test.serial('nothing released yet: 409 nothing_to_settle', async (t) => {
  const shop = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const intent = await flow.createIntent({ amount: 10_000 });
  await flow.attempt(intent.id);
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  const res = await settle(shop);
  t.is(res.statusCode, 409);
  t.like(res.result, { error: { code: 'nothing_to_settle' } });
});

test.serial('a manual test settlement is created and paid at once: 201, replayed under its key, readable, events carry the amount', async (t) => {
  const shop = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const nets = await releasedPayments(shop, [10_000, 25_050]);
  const total = nets[0] + nets[1];
  t.like(await flow.get('/v1/balance'), {
    available: thb(total),
    next_settlement: [{ amount: total, currency: 'THB', trigger: 'manual' }],
  });

  const key = unique('settle');
  const res = await settle(shop, key);
  t.is(res.statusCode, 201);
  const body = apiObjectAt(res.result);
  t.regex(body.id, /^st_[A-Z2-7]+$/);
  t.like(body, { object: 'settlement', mode: 'test', status: 'paid', amount: { amount: total, currency: 'THB' }, payments: 2 });
  for (const field of ['period_start', 'period_end', 'created']) t.regex(textAt(body, field), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  t.true(textAt(body, 'period_start') <= textAt(body, 'period_end'));
  t.deepEqual(Object.keys(body).sort(), ['amount', 'created', 'id', 'mode', 'object', 'payments', 'period_end', 'period_start', 'status', 'summary']);
  // Its lines are the two payments' releases: gross, fee and net as they were priced, adding up to the amount.
  const gross = 10_000 + 25_050;
  t.deepEqual(body.summary, {
    lines: {
      release: { count: 2, amount: total, gross, fee: gross - total, net: total },
      refund: { count: 0, amount: 0 },
      refund_reversal: { count: 0, amount: 0 },
      dispute_hold: { count: 0, amount: 0 },
      dispute_release: { count: 0, amount: 0 },
      dispute_loss: { count: 0, amount: 0 },
      settlement_failure: { count: 0, amount: 0 },
      adjustment: { count: 0, amount: 0 },
    },
    other: 0,
  });

  const replay = await settle(shop, key);
  t.is(replay.statusCode, 201);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.deepEqual(replay.result, body);

  t.like(await flow.get('/v1/balance'), { available: thb(0), pending: thb(0), next_settlement: [{ amount: 0, trigger: 'manual' }] });
  t.deepEqual(await flow.get(`/v1/settlements/${body.id}`), body);
  t.deepEqual(await flow.get('/v1/settlements'), { object: 'list', data: [body], has_more: false });

  const events = apiObjectsAt(await flow.get('/v1/events?limit=100'), 'data')
    .filter((event) => jsonAt(event, 'data', 'id') === body.id)
    .reverse();
  t.deepEqual(
    events.map((event) => event.type),
    ['settlement.pending', 'settlement.processing', 'settlement.paid'],
  );
  for (const event of events) {
    t.like(event.data, { id: body.id, object: 'settlement', merchant: shop.id, mode: 'test', amount: { amount: total, currency: 'THB' } });
  }

  const second = await settle(shop);
  t.is(second.statusCode, 409, 'each payment is settled once');
  t.like(second.result, { error: { code: 'nothing_to_settle' } });
});

test.serial('a retry after a crash between the work and its stored answer gets the settlement the first try made, not 409', async (t) => {
  const shop = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const nets = await releasedPayments(shop, [12_000]);
  const key = unique('settle');
  // The first try's work, as a process that died before storing the answer (or whose claim's
  // lease ran out) leaves it: the settlement exists, the key holds no answer.
  const first = await app()
    .app.get(CreateManualSettlement)
    .execute({ scope: { merchantId: shop.id, mode: 'test' }, requestKey: { caller: API_CALLER, key } });
  t.is(first.status, 'paid');

  const retry = await settle(shop, key);
  t.is(retry.statusCode, 201);
  t.like(retry.result, { id: first.id, status: 'paid', amount: { amount: nets[0], currency: 'THB' }, payments: 1 });
  t.is(listAt(await flow.get('/v1/settlements'), 'data').length, 1, 'no second settlement');
  t.like(await flow.get('/v1/balance'), { available: thb(0) });
  const replay = await settle(shop, key);
  t.is(replay.headers['idempotent-replayed'], 'true');
  t.deepEqual(replay.result, retry.result);
  // Another key still finds nothing to settle.
  t.like((await settle(shop)).result, { error: { code: 'nothing_to_settle' } });
});

test.serial('a key reused after 24 hours is a new request: a new settlement, not the old one replayed', async (t) => {
  const shop = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const [firstNet] = await releasedPayments(shop, [12_000]);
  const key = unique('settle');
  const first = await settle(shop, key);
  t.is(first.statusCode, 201);
  t.like(first.result, { status: 'paid', amount: { amount: firstNet, currency: 'THB' } });

  clock.advance(24 * 3_600_000 + 1_000);
  const [laterNet] = await releasedPayments(shop, [7_000]);
  const again = await settle(shop, key);
  t.is(again.statusCode, 201);
  t.is(again.headers['idempotent-replayed'], undefined);
  t.not(jsonAt(again.result, 'id'), jsonAt(first.result, 'id'));
  t.like(again.result, { status: 'paid', amount: { amount: laterNet, currency: 'THB' }, payments: 1 });
  t.is(listAt(await flow.get('/v1/settlements'), 'data').length, 2);
  t.like(await flow.get(`/v1/settlements/${textAt(first.result, 'id')}`), { status: 'paid', amount: { amount: firstNet, currency: 'THB' } });
});

test.serial('a key reused for another request is 422 idempotency_key_reused', async (t) => {
  const shop = await merchantOn('manual');
  await releasedPayments(shop, [10_000]);
  const key = unique('shared');
  const created = await app().request({
    method: 'POST',
    url: '/v1/payment_intents',
    key: shop.testKey,
    idempotencyKey: key,
    payload: { amount: 5000, currency: 'THB', merchant_order_id: unique('order') },
  });
  t.is(created.statusCode, 201);
  const res = await settle(shop, key);
  t.is(res.statusCode, 422);
  t.like(res.result, { error: { code: 'idempotency_key_reused' } });
  t.is((await settle(shop)).statusCode, 201, 'nothing was settled under the reused key');
});

test.serial('the create takes no body', async (t) => {
  const shop = await merchantOn('manual');
  const res = await app().request({ method: 'POST', url: '/v1/settlements', key: shop.testKey, idempotencyKey: unique(), payload: { amount: 100 } });
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'invalid_parameter', param: 'amount' } });
});

test.serial('reads: newest first with cursor pages; malformed ids 400; unknown and foreign ids 404', async (t) => {
  const shop = await merchantOn('manual');
  const other = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const made: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    await releasedPayments(shop, [10_000 + i]);
    made.push(textAt((await settle(shop)).result, 'id'));
  }
  const page = await flow.get('/v1/settlements?limit=2');
  t.deepEqual(
    apiObjectsAt(page, 'data').map((s) => s.id),
    [made[2], made[1]],
  );
  t.true(page.has_more);
  const next = await flow.get(`/v1/settlements?limit=2&starting_after=${made[1]}`);
  t.deepEqual(
    apiObjectsAt(next, 'data').map((s) => s.id),
    [made[0]],
  );
  t.false(next.has_more);

  const bad = await app().request({ method: 'GET', url: '/v1/settlements/st_lowercase1', key: shop.testKey });
  t.is(bad.statusCode, 400);
  t.like(bad.result, { error: { code: 'invalid_parameter', param: 'id' } });
  const unknown = await app().request({ method: 'GET', url: '/v1/settlements/st_AAAAAAAAAAAAAAAAAAAAAAAAAA', key: shop.testKey });
  t.is(unknown.statusCode, 404);
  t.like(unknown.result, { error: { code: 'resource_not_found' } });
  const foreign = await app().request({ method: 'GET', url: `/v1/settlements/${made[0]}`, key: other.testKey });
  t.is(foreign.statusCode, 404);
  t.deepEqual((await paymentFlow(app(), other.testKey).get('/v1/settlements')).data, []);
  const live = await app().request({ method: 'GET', url: `/v1/settlements/${made[0]}`, key: await shop.liveKey() });
  t.is(live.statusCode, 404, 'test settlements are not seen with a live key');
  for (const query of ['limit=0', 'limit=101', 'starting_after=pi_123']) {
    const res = await app().request({ method: 'GET', url: `/v1/settlements?${query}`, key: shop.testKey });
    t.is(res.statusCode, 400, query);
  }
  const foreignCursor = await app().request({ method: 'GET', url: `/v1/settlements?starting_after=${made[0]}`, key: other.testKey });
  t.is(foreignCursor.statusCode, 400);
});

test.serial('ten manual settlements racing for the same funds: one 201, the rest 409, every payment settled once', async (t) => {
  const shop = await merchantOn('manual');
  const flow = paymentFlow(app(), shop.testKey);
  const nets = await releasedPayments(shop, [10_000, 20_000, 30_000, 40_000]);
  const total = nets.reduce((sum, net) => sum + net, 0);
  const answers = await Promise.all(Array.from({ length: 10 }, () => settle(shop)));
  const statuses = answers.map((res) => res.statusCode).sort();
  t.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409, 409, 409], JSON.stringify(answers.map((res) => res.result)));
  for (const res of answers.filter((answer) => answer.statusCode === 409)) t.like(res.result, { error: { code: 'nothing_to_settle' } });
  const winner = objectAt(answers.find((res) => res.statusCode === 201)?.result);
  t.like(winner, { status: 'paid', payments: 4, amount: { amount: total, currency: 'THB' } });
  const listed = apiObjectsAt(await flow.get('/v1/settlements'), 'data');
  t.deepEqual(
    listed.map((s) => s.id),
    [winner.id],
  );
  t.like(await flow.get('/v1/balance'), { available: thb(0), pending: thb(0) });
});

test.serial('a merchant on a daily schedule gets a batch of the last UTC day from the worker, paid by the payout job', async (t) => {
  const shop = await merchantOn('daily');
  const flow = paymentFlow(app(), shop.testKey);
  const nets = await releasedPayments(shop, [15_000]);
  t.deepEqual(await scheduledBatchesOf(shop.id), [], 'the day is not over');

  const now = clock.now();
  clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 30)));
  const made = await scheduledBatchesOf(shop.id);
  t.is(made.length, 1);
  const [batch] = made;
  const read = await flow.get(`/v1/settlements/${batch?.id}`);
  t.like(read, { status: 'pending', payments: 1, amount: { amount: nets[0], currency: 'THB' } });
  t.is(read.period_end, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().replace('.000', ''));
  t.like(await flow.get('/v1/balance'), { available: thb(0) });

  await runJob(app().app, PaySettlements);
  t.like(await flow.get(`/v1/settlements/${batch?.id}`), { status: 'paid' });
  t.is((await scheduledBatchesOf(shop.id)).length, 0, 'once per period');
});
