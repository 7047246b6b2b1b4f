import test from 'ava';
import type { Knex } from 'knex';
import {
  AuditLog,
  CreateMerchant,
  DisputeRepository,
  IDEMPOTENCY,
  IdempotencyStore,
  PaymentAttemptRepository,
  RefundRepository,
  type Refund,
} from '@payments/core';
import { AppKnex } from '../src/container';
import { asUser, signIn } from './helpers/dashboard';
import { armedFaults, databaseUnavailable, faultsOf, onNextCall, ProcessDied } from './helpers/faults';
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

let faults: ReturnType<typeof faultsOf> | undefined;
/** The app's unit of work, wrapped (once, before the first request it fails) to fail after a commit. */
const commits = (): ReturnType<typeof faultsOf> => (faults ??= faultsOf(app().app));
const knex = (): Knex => app().app.get<Knex>(AppKnex);
const store = (): IdempotencyStore => app().app.get<IdempotencyStore>(IdempotencyStore);

/** How the test reaches the phases of one route's work. */
interface Phases {
  /** `error` is raised once the transaction that makes (or stores) the route's object committed. */
  afterFirst(error: () => Error): void;
  /** The transaction that records the channel's answer fails (503); undefined when the route has none after the call. */
  readonly second?: () => void;
}

interface Boundary {
  readonly name: string;
  /** The first try's status. */
  readonly status: number;
  /** The process died: its claim stays until the lease runs out. */
  readonly died?: boolean;
  arm(phases: Phases): void;
}

/** `key`'s next call fails with a 503 before it runs. */
function failsOnce<T extends object>(object: T, key: keyof T): void {
  onNextCall(object, key, (restore) => {
    const failing = async (): Promise<never> => {
      restore();
      throw databaseUnavailable();
    };
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a method of any signature may fail before it runs
    return failing as T[keyof T];
  });
}

const BOUNDARIES: readonly Boundary[] = [
  { name: '(a) the first transaction commits, then the database fails', status: 503, arm: (phases) => phases.afterFirst(databaseUnavailable) },
  {
    name: "(b) the second transaction fails after the channel's call",
    status: 503,
    arm: (phases) => {
      if (!phases.second) throw new Error('no second transaction');
      phases.second();
    },
  },
  { name: '(c) the answer cannot be stored', status: 503, arm: () => failsOnce(store(), 'complete') },
  {
    name: '(d) the process dies after the first transaction and its lease runs out',
    status: 500,
    died: true,
    arm: (phases) => {
      phases.afterFirst(() => new ProcessDied());
      // A dead process releases nothing.
      onNextCall(store(), 'release', (restore) => async () => restore());
    },
  },
];

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

/** The first try, then (the lease run out if its process died) the retry with the same key. */
async function faultThenRetry(boundary: Boundary, phases: Phases, send: () => Promise<TestResponse>): Promise<{ first: TestResponse; retry: TestResponse }> {
  boundary.arm(phases);
  const first = await send();
  if (boundary.died) {
    // Until the lease runs out the key is the dead request's.
    const early = await send();
    if (early.statusCode !== 409) throw new Error(`a retry during the lease: ${early.statusCode} ${early.payload}`);
    clock.advance(IDEMPOTENCY.leaseMs + 1);
  }
  return { first, retry: await send() };
}

const refundPhases: Phases = {
  afterFirst: (error) => {
    const refunds = app().app.get<RefundRepository>(RefundRepository);
    const { failAfterCommit } = commits();
    onNextCall(refunds, 'insert', (restore) => async (refund: Refund) => {
      restore();
      await refunds.insert(refund);
      failAfterCommit(error());
    });
  },
  // The second transaction (RecordRefundReport) opens with the refund's locked read.
  second: () => failsOnce(app().app.get<RefundRepository>(RefundRepository), 'findByIdForUpdate'),
};

for (const boundary of BOUNDARIES) {
  for (const via of ['/v1/refunds', '/dashboard/v1/refunds'] as const) {
    test.serial(`POST ${via}, ${boundary.name}: the retry answers the same refund; one refund, one at the channel, one debit`, async (t) => {
      const { flow, merchantId } = await shop();
      const intent = await paidIntent(flow);
      const owner = via === '/dashboard/v1/refunds' ? await signIn(app(), { merchantId, role: 'owner' }) : undefined;
      const key = unique('refund');
      const body = { payment_intent: intent.id, amount: 2_500 };
      const send = () =>
        owner
          ? asUser(app(), owner, { method: 'POST', url: `${via}?mode=test`, payload: body, headers: { 'idempotency-key': key } })
          : flow.post(via, body, key);

      const { first, retry } = await faultThenRetry(boundary, refundPhases, send);
      t.is(first.statusCode, boundary.status, first.payload);
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

const attemptPhases: Phases = {
  afterFirst: (error) => {
    const attempts = app().app.get<PaymentAttemptRepository>(PaymentAttemptRepository);
    const { failAfterCommit } = commits();
    onNextCall(attempts, 'insert', (restore) => async (attempt) => {
      restore();
      await attempts.insert(attempt);
      failAfterCommit(error());
    });
  },
  // The second transaction (the order's record) reads the attempt back; the first never does.
  second: () => failsOnce(app().app.get<PaymentAttemptRepository>(PaymentAttemptRepository), 'findById'),
};

for (const boundary of BOUNDARIES) {
  test.serial(`POST /v1/payment_intents/{id}/attempts, ${boundary.name}: the retry answers the same attempt, 201; one attempt, one order`, async (t) => {
    const { flow } = await shop();
    const intent = await flow.createIntent({ amount: 10_000 });
    const key = unique('attempt');
    const { first, retry } = await faultThenRetry(boundary, attemptPhases, () => flow.attempt(intent.id, { payment_method: 'promptpay' }, key));
    t.is(first.statusCode, boundary.status, first.payload);
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
  });
}

test.serial('POST /v1/payment_intents/{id}/attempts whose answer was lost, retried after the payer paid: the attempt, 201, not 409', async (t) => {
  const { flow } = await shop();
  const intent = await flow.createIntent({ amount: 10_000 });
  const key = unique('attempt');
  failsOnce(store(), 'complete');
  t.is((await flow.attempt(intent.id, { payment_method: 'promptpay' }, key)).statusCode, 503);
  t.is((await flow.simulate(intent.id, { outcome: 'succeeded' })).statusCode, 200);
  const retry = await flow.attempt(intent.id, { payment_method: 'promptpay' }, key);
  t.is(retry.statusCode, 201, retry.payload);
  const attempts = await flow.attempts(intent.id);
  t.is(attempts.length, 1);
  t.like(retry.result, { id: attempts[0].id, status: 'succeeded' });
  t.is(await ordersAtChannel(intent.id), 1);
});

const evidencePhases: Phases = {
  // The one transaction, after the channel's call, stores the evidence.
  afterFirst: (error) => {
    const disputes = app().app.get<DisputeRepository>(DisputeRepository);
    const { failAfterCommit } = commits();
    onNextCall(disputes, 'update', (restore) => async (dispute) => {
      restore();
      const stored = await disputes.update(dispute);
      failAfterCommit(error());
      return stored;
    });
  },
};

for (const boundary of BOUNDARIES.filter((candidate) => !candidate.name.startsWith('(b)'))) {
  test.serial(`POST /v1/disputes/{id}/evidence, ${boundary.name}: the retry answers the dispute; the evidence is stored and announced once`, async (t) => {
    const { flow } = await shop();
    const intent = await paidIntent(flow);
    t.is((await flow.simulate(intent.id, { outcome: 'dispute_opened' })).statusCode, 200);
    const [dispute] = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').filter((candidate) => candidate.payment_intent === intent.id);
    const key = unique('evidence');
    const body = { evidence: { tracking_number: 'TH1234567890' } };
    const { first, retry } = await faultThenRetry(boundary, evidencePhases, () => flow.post(`/v1/disputes/${dispute.id}/evidence`, body, key));
    t.is(first.statusCode, boundary.status, first.payload);
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
  });
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
