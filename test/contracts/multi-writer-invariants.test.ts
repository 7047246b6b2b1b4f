import test from 'ava';
import {
  AuditRecorder,
  CancelPaymentIntent,
  CreateManualSettlement,
  CreateRefund,
  CreateScheduledSettlements,
  isCoreError,
  merchantAccount,
  openSettlement,
  paymentDisputesOf,
  PaymentFunds,
  PaySettlement,
  PlaceAttempt,
  RecordDisputeReport,
  RecordRefundReport,
  SubmitDisputeEvidence,
  withoutUndefined,
  type AccountScope,
  type ChannelCapabilities,
  type ChannelDisputeStatus,
  type ChannelNotice,
  type ChannelOrderStatus,
  type LockManager,
  type Merchant,
  type Mode,
  type PaymentAttempt,
  type PaymentChannel,
  type PaymentChannelRegistry,
  type PaymentIntent,
  type PayoutGateway,
  type PayoutRequest,
  type PayoutResult,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type PlaceRefundRequest,
  type PlaceRefundResult,
  type RecordDisputeReportDeps,
  type StoragePorts,
} from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { CryptoRandomSource } from '@payments/node-runtime';
import { createSqlStorage, createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { aMerchant, aPaymentIntent, ids } from '../fixtures';

/**
 * What a multi-writer cluster (Galera) does to the rules a row lock kept: a `FOR UPDATE` on one
 * node holds up no transaction of another, so two requests for one object both read it, both
 * decide, and both write. These tests put two such transactions on one MariaDB server: the
 * storage reads without row locks (`rowLocks: false`), a lock manager that never blocks stands for
 * a Redis that restarted empty, and each test makes both transactions read before either writes
 * (`meeting`). What then keeps each rule is a write the database checks (a version, a guard's
 * unique key, a conditional mark), and the loser, run again by the unit of work, must answer as a
 * request that came second does, never with a 5xx.
 *
 * Each rule runs in two kinds of session: READ COMMITTED, what the service runs (a checked write
 * finds the other's change and refuses), and first-committer-wins (REPEATABLE READ with MariaDB's
 * `innodb_snapshot_isolation`), which refuses a write to any row changed after the transaction's
 * snapshot as Galera's certification refuses the later of two write sets touching one row. Rules
 * kept by both transactions writing one row, without a check of their own, run in the second kind
 * only: that is what a cluster gives them, and a single server's row lock gives them the rest.
 *
 * MariaDB only (PAYMENTS_TEST_DATABASE_URL): SQLite runs one transaction at a time, so there is no
 * race to lose.
 */

type Session = 'read-committed' | 'first-committer-wins';
const SESSIONS: readonly Session[] = ['read-committed', 'first-committer-wins'];
const onMysql = Boolean(process.env['PAYMENTS_TEST_DATABASE_URL']);

const databases = new Map<Session, TestDatabase>();
if (onMysql) {
  test.before(async () => {
    for (const session of SESSIONS) databases.set(session, await createTestDatabase({ firstCommitterWins: session === 'first-committer-wins' }));
  });
  test.after.always(async () => {
    for (const database of databases.values()) await database.destroy();
  });
}

/** A storage over the session's database that takes no row locks, as another node's transaction sees them. */
function nodeStorage(session: Session): StoragePorts {
  const database = databases.get(session);
  if (!database) throw new Error(`No ${session} database`);
  return createSqlStorage(database.knex, { rowLocks: false, baseDelayMs: 2 });
}

/** The one owner of a payment's money, over the storage's ledger and disputes. */
function fundsOf(storage: StoragePorts): PaymentFunds {
  return new PaymentFunds({ ledger: storage.ledger, disputes: paymentDisputesOf(storage.disputes) });
}

/** Holds the first `count` callers until all of them arrived; later ones (a run the unit of work retries) pass at once. */
function meeting(count = 2): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    if (arrived >= count) return;
    arrived += 1;
    if (arrived === count) release();
    await all;
  };
}

/** `target` whose `method` meets the other transaction after it read: both read before either writes. */
function meetingAfter<T extends object>(target: T, method: keyof T, meet: () => Promise<void>): T {
  const proxy = new Proxy(target, {
    get(object, property, receiver) {
      // Called on the proxy, methods run on `target`; called on a copy of it bound to a
      // transaction (which inherits from the proxy), on that copy, so they run in the transaction.
      const self: unknown = receiver === proxy ? object : receiver;
      const value: unknown = Reflect.get(object, property, self);
      if (typeof value !== 'function') return value;
      if (property !== method) return (...args: unknown[]): unknown => value.apply(self, args);
      return async (...args: unknown[]) => {
        const result: unknown = await value.apply(self, args);
        await meet();
        return result;
      };
    },
  });
  return proxy;
}

/** Every caller goes through at once: the lock of a Redis that restarted empty, taken twice. */
const noLocks: LockManager = { withLock: (_key, _ttl, fn) => fn() };

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
const random = new CryptoRandomSource();
const CAPABILITIES: ChannelCapabilities = {
  name: 'fake',
  modes: ['test', 'live'],
  methods: ['promptpay'],
  currencies: ['THB'],
  canSimulate: false,
  pendingTimeoutMs: 60_000,
};

/** A channel idempotent on our references, as the port requires; it remembers what it was asked. */
class RecordingChannel implements PaymentChannel {
  readonly capabilities = CAPABILITIES;
  readonly placed: string[] = [];
  readonly refunds: string[] = [];

  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    this.placed.push(request.reference);
    return { outcome: 'placed', channelOrderId: `ord_${request.reference}`, nextAction: { type: 'qr_code', qrData: request.reference } };
  }
  async queryOrder(_mode: Mode, channelOrderId: string): Promise<ChannelOrderStatus> {
    throw new Error(`not asked: ${channelOrderId}`);
  }
  verifyCallback(): ChannelNotice {
    throw new Error('no callbacks here');
  }
  async voidOrder(): Promise<void> {}
  async placeRefund(request: PlaceRefundRequest): Promise<PlaceRefundResult> {
    this.refunds.push(request.reference);
    return { outcome: 'placed', channelRefundId: `chr_${request.reference}` };
  }
}

const registryOf = (channel: PaymentChannel): PaymentChannelRegistry => ({ find: (name) => (name === 'fake' ? channel : undefined), forMode: () => [channel] });

/** What use cases take from the storage, the clock and randomness: their deps objects pick their fields from it. */
function depsOf(storage: StoragePorts) {
  return { ...storage, funds: fundsOf(storage), destinations: storage.payoutDestinations, clock, random, locks: noLocks };
}

/** Both outcomes of two racing calls; a rejection that is not a CoreError (a driver error, a bug) fails the test. */
async function race<T>(t: { fail(message: string): void }, calls: readonly [Promise<T>, Promise<T>]): Promise<PromiseSettledResult<T>[]> {
  const outcomes = await Promise.allSettled(calls);
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected' && !isCoreError(outcome.reason)) t.fail(`not an answer: ${String(outcome.reason)}`);
    if (outcome.status === 'rejected' && isCoreError(outcome.reason) && ['unavailable', 'internal'].includes(outcome.reason.category)) {
      t.fail(`a 5xx: ${outcome.reason.code} ${outcome.reason.message}`);
    }
  }
  return outcomes;
}

const values = <T>(outcomes: readonly PromiseSettledResult<T>[]): T[] => outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
const codes = (outcomes: readonly PromiseSettledResult<unknown>[]): string[] =>
  outcomes.flatMap((outcome) => (outcome.status === 'rejected' && isCoreError(outcome.reason) ? [outcome.reason.code] : []));

async function newMerchant(storage: StoragePorts, overrides: Partial<Merchant> = {}): Promise<Merchant> {
  const merchant = aMerchant(overrides);
  await storage.merchants.insert(merchant);
  return merchant;
}

/** A payment of 10000 THB, paid through the `fake` channel, priced and booked. */
async function paidIntent(
  storage: StoragePorts,
  scope: AccountScope,
  overrides: Partial<PaymentIntent> = {},
): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt }> {
  const now = clock.now();
  const intent = withoutUndefined(
    aPaymentIntent(scope, {
      status: 'succeeded',
      paymentMethod: 'promptpay',
      net: { amount: 9_700, currency: 'THB' },
      fee: { amount: 300, currency: 'THB' },
      expiresAt: undefined,
      created: now,
      updated: now,
      ...overrides,
    }),
  );
  await storage.intents.insert(intent);
  const attempt: PaymentAttempt = {
    id: `pa_${ids.token()}`,
    paymentIntentId: intent.id,
    merchantId: scope.merchantId,
    mode: scope.mode,
    status: 'succeeded',
    amount: intent.amount,
    currency: intent.currency,
    paymentMethod: 'promptpay',
    channel: 'fake',
    channelOrderId: `ord_${intent.id}`,
    succeededAt: now,
    created: now,
    updated: now,
    version: 0,
  };
  await storage.attempts.insert(attempt);
  const funds = fundsOf(storage);
  await funds.book(intent, now);
  if (intent.releasedAt) await funds.release(intent, now);
  return { intent, attempt };
}

function skipped(what: string): void {
  test(`${what} (skipped without PAYMENTS_TEST_DATABASE_URL)`, (t) => t.pass());
}

for (const session of onMysql ? SESSIONS : []) {
  const title = (rule: string): string => `${session}, no row locks, no Redis lock: ${rule}`;

  test(title('two attempts placed at once on one intent make one pending attempt and one order; both are answered with it'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const intent = aPaymentIntent(scope, { status: 'requires_payment', expiresAt: new Date(clock.now().getTime() + 3_600_000) });
    await storage.intents.insert(intent);
    const channel = new RecordingChannel();
    const place = new PlaceAttempt({
      ...depsOf(storage),
      intents: meetingAfter(storage.intents, 'findByIdForUpdate', meeting()),
      channels: registryOf(channel),
      settings: { callbackBaseUrl: 'https://pay.example.com' },
    });
    const attempt = () => place.execute({ scope, intentId: intent.id, paymentMethod: 'promptpay' });

    const answered = values(await race(t, [attempt(), attempt()]));
    t.is(answered.length, 2);
    const stored = await storage.attempts.listForIntent(scope, intent.id);
    t.is(stored.length, 1, 'one attempt');
    t.deepEqual(
      answered.map((answer) => answer.attempt.id),
      [stored[0]?.id, stored[0]?.id],
    );
    t.deepEqual([...new Set(channel.placed)], [stored[0]?.id], 'one order, placed (idempotently) under the one attempt');
    t.like(stored[0], { status: 'pending', channelOrderId: `ord_${stored[0]?.id}` });
  });

  test(title('an attempt placed while the intent is canceled: never a pending attempt on a canceled intent'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const intent = aPaymentIntent(scope, { status: 'requires_payment', expiresAt: new Date(clock.now().getTime() + 3_600_000) });
    await storage.intents.insert(intent);
    const intents = meetingAfter(storage.intents, 'findByIdForUpdate', meeting());
    const channels = registryOf(new RecordingChannel());
    const place = new PlaceAttempt({
      ...depsOf(storage),
      intents,
      channels,
      settings: { callbackBaseUrl: 'https://pay.example.com' },
    });
    const cancel = new CancelPaymentIntent({ ...depsOf(storage), intents, channels });

    const [placed, canceled] = await race<unknown>(t, [
      place.execute({ scope, intentId: intent.id, paymentMethod: 'promptpay' }),
      cancel.execute({ scope, id: intent.id }),
    ]);
    t.is(canceled?.status, 'fulfilled');
    t.is((await storage.intents.findById(scope, intent.id))?.status, 'canceled');
    const attempts = await storage.attempts.listForIntent(scope, intent.id);
    t.false(
      attempts.some((attempt) => attempt.status === 'pending'),
      JSON.stringify(attempts),
    );
    if (placed?.status === 'rejected') {
      // The cancel came first: what a second request gets.
      t.deepEqual(codes([placed]), ['invalid_state_transition']);
      t.is(attempts.length, 0);
    } else {
      // The attempt came first: the cancel ended it.
      t.like(attempts[0], { status: 'failed', failureCode: 'canceled' });
    }
  });

  test(title('two cancels of one intent: one cancels, the other is 409 invalid_state_transition, one event'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const intent = aPaymentIntent(scope, { status: 'requires_payment' });
    await storage.intents.insert(intent);
    const cancel = new CancelPaymentIntent({
      ...depsOf(storage),
      intents: meetingAfter(storage.intents, 'findByIdForUpdate', meeting()),
      channels: registryOf(new RecordingChannel()),
    });

    const outcomes = await race(t, [cancel.execute({ scope, id: intent.id }), cancel.execute({ scope, id: intent.id })]);
    t.is(values(outcomes).length, 1);
    t.deepEqual(codes(outcomes), ['invalid_state_transition']);
    const events = await storage.events.listForPaymentIntent(scope, intent.id);
    t.deepEqual(
      events.map((event) => event.type),
      ['payment_intent.canceled'],
    );
  });

  test(title('two refunds of the whole payment at once: one refund, the other 409 refund_exceeds_remaining'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const { intent } = await paidIntent(storage, scope);
    const channel = new RecordingChannel();
    const writes = depsOf(storage);
    const refund = new CreateRefund({
      ...writes,
      intents: meetingAfter(storage.intents, 'findByIdForUpdate', meeting()),
      channels: registryOf(channel),
      settings: { callbackBaseUrl: 'https://pay.example.com' },
      disputes: paymentDisputesOf(storage.disputes),
      recordReport: new RecordRefundReport(writes),
      audit: new AuditRecorder({ log: storage.audit, clock, random }),
    });

    const outcomes = await race(t, [refund.execute({ scope, paymentIntentId: intent.id }), refund.execute({ scope, paymentIntentId: intent.id })]);
    t.is(values(outcomes).length, 1);
    t.deepEqual(codes(outcomes), ['refund_exceeds_remaining']);
    t.is((await storage.refunds.list(scope, { paymentIntentId: intent.id }, { limit: 10 })).data.length, 1);
    t.is((await storage.intents.findById(scope, intent.id))?.amountRefunded, intent.amount);
    t.is(channel.refunds.length, 1);
  });

  test(title('two disputes opened at once on one payment: the net is held once'), async (t) => {
    const storage = nodeStorage(session);
    const { scope, intent, attempt, report, recorder } = await disputedPayment(storage);
    const record = recorder({ intents: meetingAfter(storage.intents, 'findByIdForUpdate', meeting()) });

    await race(t, [record.execute({ attempt, report: report('chd_1') }), record.execute({ attempt, report: report('chd_2') })]);
    const disputes = (await storage.disputes.list(scope, { paymentIntentId: intent.id }, { limit: 10 })).data;
    t.is(disputes.length, 2);
    t.is(disputes.filter((dispute) => dispute.held !== undefined).length, 1, 'one hold per intent');
    const [hold] = await storage.uow.run(async (transaction) => [
      await transaction.bind(storage.ledger).balanceForUpdate(merchantAccount(scope, 'dispute_hold', 'THB')),
    ]);
    t.is(hold, BigInt(intent.net?.amount ?? 0));
  });

  test(title('one dispute reported twice at once: one dispute, and both reports are answered with it'), async (t) => {
    const storage = nodeStorage(session);
    const { scope, intent, attempt, report, recorder } = await disputedPayment(storage);
    const record = recorder({ intents: meetingAfter(storage.intents, 'findByIdForUpdate', meeting()) });

    const answered = values(await race(t, [record.execute({ attempt, report: report('chd_same') }), record.execute({ attempt, report: report('chd_same') })]));
    const disputes = (await storage.disputes.list(scope, { paymentIntentId: intent.id }, { limit: 10 })).data;
    t.is(disputes.length, 1);
    t.deepEqual(
      answered.map((dispute) => dispute.id),
      [disputes[0]?.id, disputes[0]?.id],
    );
  });

  test(title('two manual settlements at once: one settles the payment, the other is 409 nothing_to_settle'), async (t) => {
    const storage = nodeStorage(session);
    const merchant = await newMerchant(storage, { settlementSchedule: 'manual' });
    const scope: AccountScope = { merchantId: merchant.id, mode: 'live' };
    const { intent } = await paidIntent(storage, scope, { status: 'channel_settled', availableAt: clock.now(), releasedAt: clock.now() });
    const create = manualSettlements(storage, meeting());

    const outcomes = await race(t, [create.execute({ scope }), create.execute({ scope })]);
    t.is(values(outcomes).length, 1);
    t.deepEqual(codes(outcomes), ['nothing_to_settle']);
    const settlements = (await storage.settlements.list(scope, { limit: 10 })).data;
    t.is(settlements.length, 1);
    t.is((await storage.intents.findById(scope, intent.id))?.settlementId, settlements[0]?.id);
  });

  test(title('one manual settlement request run twice at once: one settlement, both answered with it'), async (t) => {
    const storage = nodeStorage(session);
    const merchant = await newMerchant(storage, { settlementSchedule: 'manual' });
    const scope: AccountScope = { merchantId: merchant.id, mode: 'live' };
    await paidIntent(storage, scope, { status: 'channel_settled', availableAt: clock.now(), releasedAt: clock.now() });
    // A second payment, so the second run finds something to settle should it not see the first's key.
    await paidIntent(storage, scope, { status: 'channel_settled', availableAt: clock.now(), releasedAt: clock.now() });
    const create = manualSettlements(storage, meeting());
    const requestKey = { caller: 'api', key: 'key-1' };

    const answered = values(await race(t, [create.execute({ scope, requestKey }), create.execute({ scope, requestKey })]));
    const settlements = (await storage.settlements.list(scope, { limit: 10 })).data;
    t.is(settlements.length, 1);
    t.deepEqual(
      answered.map((settlement) => settlement.id),
      [settlements[0]?.id, settlements[0]?.id],
    );
  });

  test(title('two workers making one period’s scheduled batch: one batch, the other finds it'), async (t) => {
    const storage = nodeStorage(session);
    const merchant = await newMerchant(storage, { settlementSchedule: 'daily' });
    const scope: AccountScope = { merchantId: merchant.id, mode: 'live' };
    const released = new Date('2026-08-31T12:00:00Z');
    await paidIntent(storage, scope, { status: 'channel_settled', availableAt: released, releasedAt: released });
    const scheduled = new CreateScheduledSettlements({
      ...depsOf(storage),
      settlements: meetingAfter(storage.settlements, 'findSettleable', meeting()),
    });
    const item = { merchant, scope, period: { start: new Date('2026-08-31T00:00:00Z'), end: new Date('2026-09-01T00:00:00Z') } };

    const outcomes = values(await race(t, [scheduled.handle(item), scheduled.handle(item)]));
    t.is(outcomes.filter((outcome) => outcome !== undefined).length, 1);
    t.is((await storage.settlements.list(scope, { limit: 10 })).data.length, 1);
  });

  test(title('two first payout destinations registered at once: one default'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const meet = meeting();
    // What RegisterPayoutDestination does in its transaction, past the step-up.
    const register = (id: string) =>
      storage.uow.run(async (transaction) => {
        const payoutDestinations = transaction.bind(storage.payoutDestinations);
        await payoutDestinations.insert({
          id,
          merchantId: scope.merchantId,
          mode: scope.mode,
          type: 'simulated',
          currency: 'THB',
          accountHolder: 'Shop',
          bankCode: 'SIMULATED',
          accountNumberSealed: 'sealed',
          accountNumberLast4: '0000',
          status: 'verified',
          isDefault: false,
          created: clock.now(),
        });
        const found = await payoutDestinations.findDefault(scope);
        await meet();
        return found === undefined ? payoutDestinations.makeDefault(scope, id, undefined) : payoutDestinations.findById(scope, id);
      });

    await race(t, [register('pd_first'), register('pd_second')]);
    const destinations = await storage.payoutDestinations.list(scope);
    t.is(destinations.length, 2);
    t.is(destinations.filter((destination) => destination.isDefault).length, 1);
  });

  test(title('two relay passes claiming at once never lease one delivery twice'), async (t) => {
    const storage = nodeStorage(session);
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
    const due = await dueDeliveries(storage, scope, 4);
    const meet = meeting();
    const now = clock.now();
    const pass = (leaseMs: number) =>
      storage.uow.run(async (transaction) => {
        const webhookDeliveries = transaction.bind(storage.webhookDeliveries);
        // Both passes read (their snapshots) before either claims.
        await webhookDeliveries.findById(scope, due[0] ?? '');
        await meet();
        return webhookDeliveries.claimDue('test', now, new Date(now.getTime() + leaseMs), 10);
      });

    const claims = values(await race(t, [pass(60_000), pass(61_000)]));
    const claimed = claims.flatMap((claim) => claim.map(({ delivery }) => delivery.id));
    t.is(new Set(claimed).size, claimed.length, `a delivery leased twice: ${JSON.stringify(claims.map((claim) => claim.length))}`);
    t.deepEqual([...claimed].sort(), [...due].sort());
  });
}

if (onMysql) {
  test('a relay claim that meets a lease taken meanwhile claims nothing, and throws nothing, even past its retries', async (t) => {
    const database = databases.get('read-committed');
    if (!database) throw new Error('no database');
    const storage = createSqlStorage(database.knex, { rowLocks: false, maxRetries: 0 });
    const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'live' };
    const [id] = await dueDeliveries(storage, scope, 1);
    const now = clock.now();
    // Another node's pass leases the delivery; its commit lands while this pass is claiming.
    const other = await database.knex.transaction();
    await other('webhook_deliveries')
      .where({ id })
      .update({ locked_until: now.getTime() + 60_000 });
    const claiming = storage.webhookDeliveries.claimDue('live', now, new Date(now.getTime() + 30_000), 10);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.commit();
    t.deepEqual(await claiming, []);
    const row = await database.knex<{ id: string; locked_until: number }>('webhook_deliveries').where({ id }).first('locked_until');
    t.is(Number(row?.locked_until), now.getTime() + 60_000, 'the other lease stands');
  });
}

for (const session of onMysql ? (['first-committer-wins'] as const) : []) {
  const title = (rule: string): string => `${session}, no row locks: ${rule}`;

  test(title('one settlement paid by two workers at once: one processing change, one payout, one paid change'), async (t) => {
    const storage = nodeStorage(session);
    const merchant = await newMerchant(storage, { settlementSchedule: 'manual' });
    const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
    await paidIntent(storage, scope, { status: 'channel_settled', availableAt: clock.now(), releasedAt: clock.now() });
    const pending = await storage.uow.run((transaction) =>
      openSettlement(transaction.bind(depsOf(storage)), { merchant, scope, trigger: 'manual', releasedBefore: clock.now() }),
    );
    const gateway = new RecordingGateway();
    const pay = new PaySettlement({
      ...depsOf(storage),
      settlements: meetingAfter(storage.settlements, 'findByIdForUpdate', meeting()),
      secrets: plainSecrets,
      gateway,
    });

    await race(t, [pay.execute({ scope, id: pending.id }), pay.execute({ scope, id: pending.id })]);
    t.is((await storage.settlements.findById(scope, pending.id))?.status, 'paid');
    t.deepEqual([...new Set(gateway.sent)], [pending.id], 'one payout reference');
    const types = (await storage.events.list(scope, {}, { limit: 50 })).data.filter((event) => event.data.id === pending.id).map((event) => event.type);
    t.deepEqual([...types].sort(), ['settlement.paid', 'settlement.pending', 'settlement.processing']);
  });

  test(title('evidence submitted while the dispute is ruled: the ruling stands'), async (t) => {
    const storage = nodeStorage(session);
    const { scope, attempt, report, recorder } = await disputedPayment(storage);
    const opened = await recorder().execute({ attempt, report: report('chd_ruled') });
    const disputes = meetingAfter(storage.disputes, 'findByIdForUpdate', meeting());
    const channel = Object.assign(new RecordingChannel(), { submitDisputeEvidence: async () => undefined });
    const evidence = new SubmitDisputeEvidence({
      ...depsOf(storage),
      disputes,
      channels: registryOf(channel),
      audit: new AuditRecorder({ log: storage.audit, clock, random }),
    });

    const [submitted] = await race<unknown>(t, [
      evidence.execute({ scope, disputeId: opened.id, evidence: { receipt: 'a receipt' } }),
      recorder({ disputes }).execute({ attempt, report: report('chd_ruled', 'won') }),
    ]);
    t.is((await storage.disputes.findById(scope, opened.id))?.status, 'won');
    if (submitted?.status === 'rejected') t.deepEqual(codes([submitted]), ['dispute_closed']);
  });
}

if (!onMysql) skipped('a multi-writer cluster’s races, on MariaDB');

const plainSecrets = { seal: (text: string) => text, open: (text: string) => text };

/** A payout provider that pays at once and remembers each payout by reference. */
class RecordingGateway implements PayoutGateway {
  readonly sent: string[] = [];
  private readonly paid = new Set<string>();

  supports(): boolean {
    return true;
  }
  async verifyDestination(): Promise<{ status: 'verified' }> {
    return { status: 'verified' };
  }
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.sent.push(request.reference);
    this.paid.add(request.reference);
    return { status: 'paid' };
  }
  async queryPayout(_mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    return this.paid.has(reference) ? { status: 'paid' } : undefined;
  }
}

/** Manual settlements whose first read (of the request key, or else of the settleable payments) meets the other request's. */
function manualSettlements(storage: StoragePorts, meet: () => Promise<void>): CreateManualSettlement {
  const writer = depsOf(storage);
  const settlements = meetingAfter(meetingAfter(storage.settlements, 'findByRequestKey', meet), 'findSettleable', meet);
  return new CreateManualSettlement({
    ...writer,
    settlements,
    pay: new PaySettlement({ ...writer, destinations: storage.payoutDestinations, secrets: plainSecrets, gateway: new RecordingGateway() }),
    audit: new AuditRecorder({ log: storage.audit, clock, random }),
  });
}

/** A paid payment of a merchant of its own, the reports a channel makes of disputes against it, and their recorder. */
async function disputedPayment(storage: StoragePorts) {
  const scope: AccountScope = { merchantId: (await newMerchant(storage)).id, mode: 'test' };
  const { intent, attempt } = await paidIntent(storage, scope);
  const report = (channelDisputeId: string, status: ChannelDisputeStatus['status'] = 'opened'): ChannelDisputeStatus => ({
    channelDisputeId,
    channelOrderId: attempt.channelOrderId ?? '',
    reference: attempt.id,
    status,
    amount: intent.amount,
    currency: intent.currency,
  });
  const recorder = (overrides: Partial<RecordDisputeReportDeps> = {}) =>
    new RecordDisputeReport({ ...depsOf(storage), rules: { disputeFeeMinor: 1500 }, ...overrides });
  return { scope, intent, attempt, report, recorder };
}

/** `count` deliveries of one event, due now, to an endpoint of `scope`. */
async function dueDeliveries(storage: StoragePorts, scope: AccountScope, count: number): Promise<string[]> {
  // Each test claims in a mode of its own on its database: a claim takes every due delivery of its mode.
  const eventId = ids.event();
  await storage.events.append({
    id: eventId,
    type: 'payment_intent.succeeded',
    merchantId: scope.merchantId,
    mode: scope.mode,
    created: clock.now(),
    data: { id: ids.paymentIntent(), object: 'payment_intent', status: 'succeeded', merchant: scope.merchantId, mode: scope.mode },
  });
  const delivered: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `whd_${ids.token()}`;
    await storage.webhookDeliveries.insert({
      id,
      merchantId: scope.merchantId,
      mode: scope.mode,
      eventId,
      endpointId: `we_${ids.token()}`,
      url: 'https://hooks.example.com/in',
      status: 'pending',
      attempts: 0,
      scheduleAttempts: 0,
      nextRetryAt: clock.now(),
      created: clock.now(),
      updated: clock.now(),
    });
    delivered.push(id);
  }
  return delivered;
}
