import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AppConfig, AppMetrics, type Config, type ServiceMetrics } from '@payments/api';
import { AppKnex } from '@payments/api/dist/src/modules/app-tokens';
import { capturedLogger, flushLogs } from '@payments/api/dist/test/helpers/captured-logger';
import { apiObjectsAt, listAt, objectAt, textAt } from '@payments/api/dist/test/helpers/json';
import { paymentFlow } from '@payments/api/dist/test/helpers/payment-flow';
import { startTestApp, unique, type TestApp } from '@payments/api/dist/test/helpers/test-app';
import { moneyTick } from '@payments/api/dist/test/helpers/worker-tick';
import {
  CoreError,
  CreateMerchant,
  JobItemFailures,
  ListReconciliationBreaks,
  PaymentAttemptRepository,
  ReconcileChannel,
  RecordChannelReport,
  type ChannelCapabilities,
  type ListReconciliationBreaksInput,
  type ChannelStatement,
  type PaymentChannel,
} from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import type { Knex } from 'knex';
import { reconciliationJobs } from '../src/jobs';
import { enableWorkerMetrics } from '../src/observability';

const GRACE_S = 600;

/** A test-mode channel whose statement never answers: its reconciliation fails alone. */
class UnreachableStatementChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities = {
    name: 'unreachable',
    modes: ['test'],
    methods: [],
    currencies: [],
    canSimulate: false,
    pendingTimeoutMs: 60_000,
  };
  placeOrder(): never {
    throw new Error('not used');
  }
  queryOrder(): never {
    throw new Error('not used');
  }
  verifyCallback(): never {
    throw new Error('not used');
  }
  async voidOrder(): Promise<void> {}
  async statement(): Promise<ChannelStatement> {
    throw new CoreError('channel_error', 'unavailable', 'The channel could not be reached.');
  }
}

const clock = new FakeClock(new Date());
const logs = capturedLogger();
let running: TestApp | undefined;
const app = (): TestApp => running!;
test.before(async () => {
  running = await startTestApp({ clock, logger: logs.logger, env: { PAYMENTS_RECON_GRACE_S: String(GRACE_S) }, channels: [new UnreachableStatementChannel()] });
});
test.after.always(async () => running?.close());

/** The built admin CLI, as operators run it, on the test app's database. */
function admin(...args: string[]): { code: number | null; json: unknown; stderr: string } {
  const config = app().app.get<Config>(AppConfig);
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-recon-admin-'));
  try {
    const { HOME, PATH } = process.env;
    const result = spawnSync(process.execPath, [join(__dirname, '..', '..', '..', 'admin', 'dist', 'src', 'main.js'), ...args], {
      env: { HOME, PATH, PAYMENTS_DATABASE_URL: config.databaseUrl, PAYMENTS_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status, json: result.stdout ? JSON.parse(result.stdout) : undefined, stderr: result.stderr };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One pass of the worker's reconciliation job over the test lane (each channel an item of its own). */
async function reconcile(): Promise<void> {
  const [job] = reconciliationJobs(app().app, 'test');
  await job.run();
}

/** Moves the clock on past the simulator's statement lag (its lines are listed once a second old). */
function later(ms = 2_000): void {
  clock.advance(ms);
}

function gauge(text: string, reason: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`payments_reconciliation_breaks{channel="simulator",mode="test",reason="${reason}"} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

test.serial(
  'payments through the simulator reconcile with no break; a lost movement, a changed amount and an unlisted payment open breaks (metric, log, admin) and clear when they match',
  async (t) => {
    const container = app().app;
    const knex = container.get<Knex>(AppKnex);
    const tick = moneyTick(app, clock);
    const suffix = unique('recon');
    const created = await container
      .get(CreateMerchant)
      .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementSchedule: 'manual' });
    const flow = paymentFlow(app(), created.testApiKey.secret);
    const pay = async (body: Record<string, unknown>, method = 'promptpay'): Promise<{ intent: string; attempt: string }> => {
      const intent = await flow.createIntent(body);
      await flow.attempt(intent.id, { payment_method: method });
      t.is(objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result).status, 'succeeded');
      const [attempt] = await flow.attempts(intent.id);
      return { intent: intent.id, attempt: attempt.id };
    };
    const breaks = (status?: ListReconciliationBreaksInput['status']) =>
      container.get(ListReconciliationBreaks).execute({ limit: 100, ...(status ? { status } : {}) });

    // Payments booked at success, and a wallet payment in SGD whose rate locks at the channel's
    // settlement; a refund that will succeed and one the channel declines (06); a dispute lost on a
    // priced payment and one lost on the wallet payment before it was priced.
    const first = await pay({ amount: 10_000 });
    const second = await pay({ amount: 25_050 });
    const disputed = await pay({ amount: 12_000 });
    const wallet = await pay({ amount: 4_000, currency: 'SGD', payment_method: 'alipay_plus' }, 'alipay_plus');
    const refund = async (intent: string, amount: number): Promise<string> => {
      const res = await flow.post('/v1/refunds', { payment_intent: intent, amount });
      t.is(res.statusCode, 201, res.payload);
      return textAt(res.result, 'id');
    };
    const refunded = await refund(first.intent, 3_000);
    const declined = await refund(second.intent, 1_006);
    for (const intent of [disputed.intent, wallet.intent]) {
      for (const outcome of ['dispute_opened', 'dispute_lost']) t.is((await flow.simulate(intent, { outcome })).statusCode, 200, outcome);
    }
    // A payer who paid a failed attempt after another paid the intent: a second payment, owed back,
    // which the channel lists like any other.
    const twice = await flow.createIntent({ amount: 7_000 });
    await flow.attempt(twice.id);
    await flow.simulate(twice.id, { outcome: 'failed' });
    await flow.attempt(twice.id);
    await flow.simulate(twice.id, { outcome: 'succeeded' });
    const [late] = (await flow.attempts(twice.id)).filter((attempt) => attempt.status === 'failed');
    await knex('simulator_orders').where({ reference: late.id }).update({ status: 'paid', failure_code: null, paid_at: clock.now().getTime() });
    const attempts = container.get<PaymentAttemptRepository>(PaymentAttemptRepository);
    const lateAttempt = await attempts.findByReference(late.id);
    if (!lateAttempt?.channelOrderId) return t.fail('the failed attempt has no channel order');
    await container.get(RecordChannelReport).execute({
      attempt: lateAttempt,
      report: { channelOrderId: lateAttempt.channelOrderId, reference: late.id, status: 'paid', amount: 7_000, currency: 'THB' },
    });
    t.truthy((await attempts.findByReference(late.id))?.duplicateOf, 'a second payment of the intent');
    later();
    await reconcile();
    t.deepEqual(await breaks(), []);
    // On their way by our records: the refunds still pending, the wallet payment and its chargeback not priced yet.
    const waiting = await breaks('waiting');
    t.deepEqual(waiting.map((item) => [item.kind, item.reason, item.detail]).sort(), [
      ['chargeback', 'missing_in_ledger', 'payment_not_priced'],
      ['payment', 'missing_in_ledger', 'payment_not_priced'],
      ['refund', 'missing_in_statement', 'refund_pending'],
      ['refund', 'missing_in_statement', 'refund_pending'],
    ]);
    t.deepEqual(
      waiting
        .filter((item) => item.kind !== 'chargeback')
        .map((item) => item.reference)
        .sort(),
      [wallet.attempt, refunded, declined].sort(),
    );
    await tick(); // the simulator reports the refunds (one paid, one declined) and settles the wallet payment, which is booked
    t.like(await flow.get(`/v1/refunds/${refunded}`), { status: 'succeeded' });
    t.like(await flow.get(`/v1/refunds/${declined}`), { status: 'failed' });
    later();
    await reconcile();
    t.deepEqual(await breaks('all'), [], 'everything matched once booked or paid: none of it ever was a break');
    const lines = await knex('reconciliation_statement_lines').select('kind');
    t.deepEqual(
      [...new Set(lines.map((row: { kind: string }) => row.kind))].sort(),
      ['chargeback', 'payment', 'refund'],
      'the statement listed payments, the paid refund and the chargebacks',
    );
    t.deepEqual(await container.get(ReconcileChannel).execute({ mode: 'test', channel: 'simulator' }), []);

    // The channel's statement failed for the other channel: recorded for it alone.
    const failures = await container.get<JobItemFailures>(JobItemFailures).list(10);
    t.like(
      failures.find((failure) => failure.job === 'reconcile-channels'),
      { lane: 'test', itemId: 'unreachable:test', errorCode: 'channel_error' },
    );
    t.false(failures.some((failure) => failure.itemId === 'simulator:test'));

    // The ledger loses a movement; the channel records another amount; the channel never lists a payment.
    const lostInLedger = await pay({ amount: 30_000 });
    const saved = await knex('ledger_channel_movements').where({ reference: lostInLedger.attempt }).first<Record<string, unknown>>();
    t.is(await knex('ledger_channel_movements').where({ reference: lostInLedger.attempt }).delete(), 1);
    const changed = await pay({ amount: 40_000 });
    await knex('simulator_orders').where({ reference: changed.attempt }).update({ amount: 39_900 });
    const unlisted = await pay({ amount: 50_000 });
    await knex('simulator_orders').where({ reference: unlisted.attempt }).update({ status: 'processing' });
    later();
    await reconcile();
    t.deepEqual(await breaks(), [], 'within the grace: not breaks yet');
    t.is((await breaks('waiting')).length, 3);

    clock.advance(GRACE_S * 1000);
    await reconcile();
    const open = await breaks();
    const byReference = new Map(open.map((item) => [item.reference, item]));
    t.is(open.length, 3);
    t.like(byReference.get(lostInLedger.attempt), {
      status: 'open',
      channel: 'simulator',
      mode: 'test',
      kind: 'payment',
      reason: 'missing_in_ledger',
      ledger: [],
    });
    t.deepEqual(byReference.get(lostInLedger.attempt)?.statement, [{ amount: 30_000n, currency: 'THB' }]);
    t.like(byReference.get(changed.attempt), { reason: 'amount_differs', merchantId: created.merchant.id });
    t.deepEqual(byReference.get(changed.attempt)?.statement, [{ amount: 39_900n, currency: 'THB' }]);
    t.deepEqual(byReference.get(changed.attempt)?.ledger, [{ amount: 40_000n, currency: 'THB' }]);
    t.like(byReference.get(unlisted.attempt), { reason: 'missing_in_statement', statement: [] });
    t.is((await container.get(ReconcileChannel).execute({ mode: 'test', channel: 'simulator' })).length, 3, 'what the simulation asks after each step');

    // The metric, the log line, the admin CLI.
    const metrics = container.get<ServiceMetrics>(AppMetrics);
    enableWorkerMetrics(container);
    const scraped = await metrics.registry.metrics();
    t.is(gauge(scraped, 'missing_in_ledger'), 1);
    t.is(gauge(scraped, 'amount_differs'), 1);
    t.is(gauge(scraped, 'missing_in_statement'), 1);
    t.regex(scraped, /payments_reconciliation_breaks_opened_total\{channel="simulator",mode="test",reason="amount_differs"\} 1/);
    logs.logger.flush();
    await flushLogs();
    const logged = logs.lines().filter((line) => typeof line.msg === 'string' && line.msg.startsWith('reconciliation break:'));
    t.like(
      logged.find((line) => line.reference === changed.attempt),
      { level: 40, channel: 'simulator', mode: 'test', kind: 'payment', reason: 'amount_differs', statement: ['39900 THB'], ledger: ['40000 THB'] },
    );
    t.false(logs.text().includes(created.testApiKey.secret));
    const listed = admin('recon', 'breaks');
    t.is(listed.code, 0, listed.stderr);
    const rows = apiObjectsAt(listed.json, 'breaks');
    t.deepEqual(rows.map((row) => textAt(row, 'reference')).sort(), [lostInLedger.attempt, changed.attempt, unlisted.attempt].sort());
    t.like(
      rows.find((row) => row.reference === changed.attempt),
      {
        status: 'open',
        reason: 'amount_differs',
        channel: 'simulator',
        mode: 'test',
        kind: 'payment',
        statement: [{ amount: 39_900, currency: 'THB' }],
        ledger: [{ amount: 40_000, currency: 'THB' }],
        merchant: created.merchant.id,
      },
    );

    // The movement comes back (a repair) and the channel lists the payment after all: both clear.
    await knex('ledger_channel_movements').insert(saved);
    await knex('simulator_orders').where({ reference: unlisted.attempt }).update({ status: 'paid', paid_at: clock.now().getTime() });
    later();
    await reconcile();
    t.deepEqual(
      (await breaks()).map((item) => item.reference),
      [changed.attempt],
    );
    const cleared = await breaks('cleared');
    t.deepEqual(cleared.map((item) => item.reference).sort(), [lostInLedger.attempt, unlisted.attempt].sort());
    t.true(cleared.every((item) => item.clearedAt !== undefined && item.openedAt !== undefined));
    const after = await metrics.registry.metrics();
    t.is(gauge(after, 'missing_in_ledger'), undefined);
    t.is(gauge(after, 'amount_differs'), 1);
    t.regex(after, /payments_reconciliation_breaks_cleared_total\{channel="simulator",mode="test",reason="missing_in_ledger"\} 1/);
    const clearedListing = admin('recon', 'breaks', '--status', 'cleared', '--channel', 'simulator', '--mode', 'test');
    t.is(clearedListing.code, 0, clearedListing.stderr);
    t.deepEqual(listAt(clearedListing.json, 'breaks').length, 2);
  },
);
