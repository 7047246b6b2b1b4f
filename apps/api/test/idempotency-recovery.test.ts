import test from 'ava';
import type { Knex } from 'knex';
import { AuditLog, CreateMerchant, IdempotencyStore, RefundRepository } from '@payments/core';
import { AppKnex } from '../src/container';
import { asUser, signIn } from './helpers/dashboard';
import { armedFaults, BOUNDARY_STATUS, failsOnce, faultThenRetry, ROUTE_BOUNDARIES, type Boundary, type PhasedRoute } from './helpers/faults';
import { apiObjectAt, apiObjectsAt, textAt, type ApiObject } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { unique, type TestResponse } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';

/*
 * Recovery points (docs/idempotency.md): work that calls a channel between two transactions binds
 * the object its first transaction made to the Idempotency-Key, in that transaction. A fault at any
 * phase boundary, then the client's retry with the same key: one object, placed at the channel
 * once, its money booked once, and the retry's answer names it.
 */

const { clock, app, tick } = appOnFakeClock();

type Flow = ReturnType<typeof paymentFlow>;

const knex = (): Knex => app().app.get<Knex>(AppKnex);

/** Each boundary by name, with what the first try answers. */
const BOUNDARY_NAMES: Readonly<Record<Boundary, string>> = {
  after_first: '(a) the first transaction commits, then the database fails',
  second: "(b) the second transaction fails after the channel's call",
  answer: '(c) the answer cannot be stored',
  died: '(d) the process dies after the first transaction and its lease runs out',
};

/** The first try with the fault at `boundary`, then the retry with the same key. */
async function faultThenRetryOnce(
  route: PhasedRoute,
  boundary: Boundary,
  send: () => Promise<TestResponse>,
): Promise<{ first: TestResponse; retry: TestResponse }> {
  const { first, retry, reached } = await faultThenRetry(app().app, clock, route, boundary, send);
  if (!reached) throw new Error(`the ${route} request never reached ${boundary}: ${first.statusCode} ${first.payload}`);
  return { first, retry };
}

async function count(query: Knex.QueryBuilder): Promise<number> {
  const rows: { n: number | string }[] = await query.count({ n: '*' });
  return Number(rows[0]?.n ?? 0);
}

/** The attempts of `intentId` as the database holds them, and the channel's orders for them. */
const attemptIds = (intentId: string) => knex()('payment_attempts').select('id').where({ payment_intent_id: intentId });
const ordersAtChannel = (intentId: string) => count(knex()('simulator_orders').whereIn('reference', attemptIds(intentId)));
const refundsAtChannel = (intentId: string) =>
  count(knex()('simulator_refunds').whereIn('order_id', knex()('simulator_orders').select('id').whereIn('reference', attemptIds(intentId))));
const refundDebits = (intentId: string) => count(knex()('ledger_transactions').where({ cause_type: 'refund', payment_intent_id: intentId }));

async function shop(): Promise<{ flow: Flow; merchantId: string }> {
  const suffix = unique('recovery');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery' });
  return { flow: paymentFlow(app(), created.testApiKey.secret), merchantId: created.merchant.id };
}

async function paidIntent(flow: Flow): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount: 10_000 });
  await flow.attempt(intent.id);
  const paid = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (paid.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(paid)}`);
  return paid;
}

for (const boundary of ROUTE_BOUNDARIES.refund) {
  for (const via of ['/v1/refunds', '/dashboard/v1/refunds'] as const) {
    test.serial(`POST ${via}, ${BOUNDARY_NAMES[boundary]}: the retry answers the same refund; one refund, one at the channel, one debit`, async (t) => {
      const { flow, merchantId } = await shop();
      const intent = await paidIntent(flow);
      const owner = via === '/dashboard/v1/refunds' ? await signIn(app(), { merchantId, role: 'owner' }) : undefined;
      const key = unique('refund');
      const body = { payment_intent: intent.id, amount: 2_500 };
      const send = () =>
        owner
          ? asUser(app(), owner, { method: 'POST', url: `${via}?mode=test`, payload: body, headers: { 'idempotency-key': key } })
          : flow.post(via, body, key);

      const { first, retry } = await faultThenRetryOnce('refund', boundary, send);
      t.is(first.statusCode, BOUNDARY_STATUS[boundary], first.payload);
      t.deepEqual(armedFaults(), []);
      t.is(retry.statusCode, 201, retry.payload);
      t.is(retry.headers['idempotent-replayed'], undefined);

      const made = apiObjectsAt(await flow.get(`/v1/refunds?payment_intent=${intent.id}`), 'data');
      t.is(made.length, 1, 'one refund');
      t.is(textAt(retry.result, 'id'), made[0].id, 'the retry names it');
      t.is((await flow.intent(intent.id)).amount_refunded, 2_500);
      t.is(await refundsAtChannel(intent.id), 1, 'one refund at the channel');
      t.is(await refundDebits(intent.id), 1, 'its debit booked once');
      if (owner) {
        const audited = await app().app.get<AuditLog>(AuditLog).listForMerchant(merchantId, 50);
        t.is(audited.filter((entry) => entry.action === 'refunds.write').length, 1, 'audited once');
      }

      const replay = await send();
      t.is(replay.headers['idempotent-replayed'], 'true');
      t.is(replay.payload, retry.payload);
      await tick();
      t.like(await flow.get(`/v1/refunds/${made[0].id}`), { status: 'succeeded' }, 'the channel took it and reported it');
      t.deepEqual(await flow.eventTypes(made[0].id), ['refund.created', 'refund.succeeded']);
    });
  }
}

for (const boundary of ROUTE_BOUNDARIES.attempt) {
  test.serial(
    `POST /v1/payment_intents/{id}/attempts, ${BOUNDARY_NAMES[boundary]}: the retry answers the same attempt, 201; one attempt, one order`,
    async (t) => {
      const { flow } = await shop();
      const intent = await flow.createIntent({ amount: 10_000 });
      const key = unique('attempt');
      const { first, retry } = await faultThenRetryOnce('attempt', boundary, () => flow.attempt(intent.id, { payment_method: 'promptpay' }, key));
      t.is(first.statusCode, BOUNDARY_STATUS[boundary], first.payload);
      t.deepEqual(armedFaults(), []);
      t.is(retry.statusCode, 201, retry.payload);
      const attempts = await flow.attempts(intent.id);
      t.is(attempts.length, 1, 'one attempt');
      t.like(retry.result, { id: attempts[0].id, status: 'pending' });
      t.is(await ordersAtChannel(intent.id), 1, 'one order at the channel');
      t.like(await flow.intent(intent.id), { status: 'requires_payment' });
      const replay = await flow.attempt(intent.id, { payment_method: 'promptpay' }, key);
      t.is(replay.headers['idempotent-replayed'], 'true');
      t.is(replay.payload, retry.payload);
    },
  );
}

test.serial('POST /v1/payment_intents/{id}/attempts whose answer was lost, retried after the payer paid: the attempt, 201, not 409', async (t) => {
  const { flow } = await shop();
  const intent = await flow.createIntent({ amount: 10_000 });
  const key = unique('attempt');
  failsOnce(app().app.get<IdempotencyStore>(IdempotencyStore), 'complete');
  t.is((await flow.attempt(intent.id, { payment_method: 'promptpay' }, key)).statusCode, 503);
  t.is((await flow.simulate(intent.id, { outcome: 'succeeded' })).statusCode, 200);
  const retry = await flow.attempt(intent.id, { payment_method: 'promptpay' }, key);
  t.is(retry.statusCode, 201, retry.payload);
  const attempts = await flow.attempts(intent.id);
  t.is(attempts.length, 1);
  t.like(retry.result, { id: attempts[0].id, status: 'succeeded' });
  t.is(await ordersAtChannel(intent.id), 1);
});

for (const boundary of ROUTE_BOUNDARIES.evidence) {
  test.serial(
    `POST /v1/disputes/{id}/evidence, ${BOUNDARY_NAMES[boundary]}: the retry answers the dispute; the evidence is stored and announced once`,
    async (t) => {
      const { flow } = await shop();
      const intent = await paidIntent(flow);
      t.is((await flow.simulate(intent.id, { outcome: 'dispute_opened' })).statusCode, 200);
      const [dispute] = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').filter((candidate) => candidate.payment_intent === intent.id);
      const key = unique('evidence');
      const body = { evidence: { tracking_number: 'TH1234567890' } };
      const { first, retry } = await faultThenRetryOnce('evidence', boundary, () => flow.post(`/v1/disputes/${dispute.id}/evidence`, body, key));
      t.is(first.statusCode, BOUNDARY_STATUS[boundary], first.payload);
      t.deepEqual(armedFaults(), []);
      t.is(retry.statusCode, 200, retry.payload);
      t.like(retry.result, { id: dispute.id, status: 'under_review', evidence: { tracking_number: 'TH1234567890' } });
      t.deepEqual(
        (await flow.eventTypes(dispute.id)).filter((type) => type === 'dispute.updated'),
        ['dispute.updated'],
        'announced once',
      );
      const replay = await flow.post(`/v1/disputes/${dispute.id}/evidence`, body, key);
      t.is(replay.headers['idempotent-replayed'], 'true');
      t.is(replay.payload, retry.payload);
    },
  );
}

test.serial('a failure before the recovery point still forgets the key: the retry runs anew and makes the one refund', async (t) => {
  const { flow } = await shop();
  const intent = await paidIntent(flow);
  const key = unique('refund');
  const body = { payment_intent: intent.id, amount: 2_500 };
  // The first transaction fails as it records the refund: nothing was made, nothing is bound.
  failsOnce(app().app.get<RefundRepository>(RefundRepository), 'insert');
  t.is((await flow.post('/v1/refunds', body, key)).statusCode, 503);
  t.is(await count(knex()('idempotency_keys').where({ idem_key: key })), 0, 'the key is forgotten');
  const retry = await flow.post('/v1/refunds', body, key);
  t.is(retry.statusCode, 201, retry.payload);
  t.is(apiObjectsAt(await flow.get(`/v1/refunds?payment_intent=${intent.id}`), 'data').length, 1);
});

for (const via of ['/v1/refunds', '/v1/disputes/{id}/evidence'] as const) {
  test.serial(`POST ${via} refused, its refusal not stored: the retry is answered the refusal at once, not 409 in use until the lease runs out`, async (t) => {
    const { flow } = await shop();
    const intent = await paidIntent(flow);
    let send: () => Promise<TestResponse>;
    if (via === '/v1/refunds') {
      // More than the payment: refused after the key was claimed (the work runs outside a transaction).
      const key = unique('refund');
      send = () => flow.post('/v1/refunds', { payment_intent: intent.id, amount: 10_001 }, key);
    } else {
      t.is((await flow.simulate(intent.id, { outcome: 'dispute_opened' })).statusCode, 200);
      t.is((await flow.simulate(intent.id, { outcome: 'dispute_won' })).statusCode, 200);
      const [dispute] = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').filter((candidate) => candidate.payment_intent === intent.id);
      // A ruled dispute takes no evidence.
      const key = unique('evidence');
      send = () => flow.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { tracking_number: 'TH1' } }, key);
    }
    failsOnce(app().app.get<IdempotencyStore>(IdempotencyStore), 'complete');
    t.is((await send()).statusCode, 503);
    t.deepEqual(armedFaults(), []);
    const retry = await send();
    t.is(retry.statusCode, 409, retry.payload);
    t.not(textAt(retry.result, 'error', 'code'), 'idempotency_key_in_use');
    const replay = await send();
    t.is(replay.headers['idempotent-replayed'], 'true');
    t.is(replay.payload, retry.payload);
  });
}
