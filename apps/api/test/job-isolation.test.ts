import test from 'ava';
import type { Knex } from 'knex';
import { JobItemFailures, ReportChannelSettlements, RunItemJobs } from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { dialectOf } from '@payments/storage-sql';
import { Writable } from 'node:stream';
import { AppKnex, AppMetrics } from '../src/container';
import { createLogger } from '../src/logger';
import type { ServiceMetrics } from '../src/metrics';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, type TestApp } from './helpers/test-app';
import { objectAt, textAt, type JsonObject } from './helpers/json';

/**
 * One merchant's payment that cannot be moved (here a database trigger refuses its change, as any
 * fault of one item would) must not stop anyone else's money: the job records it, skips it until
 * its next try, and the healthy payments behind it reach channel_settled.
 */

const clock = new FakeClock(new Date());
const logged: string[] = [];
const logger = createLogger(
  'warn',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  }),
);
let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ clock, logger });
});
test.after.always(async () => t0?.close());

/** A trigger that refuses to mark the merchant's intents channel_settled (SQLite or MariaDB). */
async function poison(knex: Knex, merchantId: string): Promise<() => Promise<void>> {
  const name = `poison_${merchantId.replace(/[^A-Za-z0-9]/g, '')}`;
  if (dialectOf(knex) === 'mysql') {
    await knex.raw(
      `CREATE TRIGGER ${name} BEFORE UPDATE ON payment_intents FOR EACH ROW BEGIN IF NEW.merchant_id = '${merchantId}' AND NEW.status = 'channel_settled' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'poisoned'; END IF; END`,
    );
  } else {
    await knex.raw(
      `CREATE TRIGGER ${name} BEFORE UPDATE ON payment_intents WHEN NEW.merchant_id = '${merchantId}' AND NEW.status = 'channel_settled' BEGIN SELECT RAISE(ABORT, 'poisoned'); END`,
    );
  }
  return async () => {
    await knex.raw(`DROP TRIGGER ${name}`);
  };
}

async function paidIntent(flow: ReturnType<typeof paymentFlow>): Promise<JsonObject> {
  const intent = await flow.createIntent({ amount: 20000 });
  await flow.attempt(intent.id);
  const simulated = await flow.simulate(intent.id, { outcome: 'succeeded' });
  if (simulated.statusCode !== 200) throw new Error(`simulate: ${simulated.statusCode} ${simulated.payload}`);
  return intent;
}

test('a payment that fails in the settlement report is recorded and skipped; the payments behind it settle', async (t) => {
  const { app } = t0;
  const runner = app.get(RunItemJobs);
  const job = app.get(ReportChannelSettlements);
  const failures = app.get<JobItemFailures>(JobItemFailures);
  const stuckShop = await t0.merchant();
  const healthyShop = await t0.merchant();
  const stuckFlow = paymentFlow(t0, stuckShop.testKey);
  const healthyFlow = paymentFlow(t0, healthyShop.testKey);
  const unpoison = await poison(app.get<Knex>(AppKnex), stuckShop.id);

  // The stuck payment is the oldest, so it heads the job's queue on every pass.
  const stuck = await paidIntent(stuckFlow);
  clock.advance(1000);
  const healthy = [await paidIntent(healthyFlow), await paidIntent(healthyFlow)];
  clock.advance(1000);
  await app.get(SimulatorPaymentChannel).tick(500);

  // A batch of one: without isolation every pass would try the stuck payment and nothing else.
  const first = await runner.run(job, 'test', 1);
  t.like(first, { failed: 1, progressed: 0 });
  const [record] = (await failures.list(100)).filter((failure) => failure.itemId === stuck.id);
  t.like(record, { job: 'report-channel-settlements', lane: 'test', attempts: 1 });
  t.regex(record?.errorCode ?? '', /^(SQLITE_CONSTRAINT_TRIGGER|SQLITE_CONSTRAINT|ER_SIGNAL_EXCEPTION)$/);
  t.is(record?.errorMessage, undefined, 'a driver message is not kept: it may quote data');
  // The operator sees it: a counter by job, lane and code, and a warning naming the item, never its data.
  const scraped = await app.get<ServiceMetrics>(AppMetrics).registry.metrics();
  t.regex(scraped, /payments_job_item_failures_total\{job="report-channel-settlements",lane="test",code="[A-Z_]+"\} 1/);
  logger.flush();
  const warning = logged.map((line) => objectAt(JSON.parse(line))).find((line) => line.item === stuck.id);
  t.like(warning, { level: 40, job: 'report-channel-settlements', lane: 'test', error_code: record?.errorCode, attempts: 1 });
  t.false(JSON.stringify(warning).includes('poisoned'), 'no driver text in the log');

  await runner.run(job, 'test', 1);
  await runner.run(job, 'test', 1);
  for (const intent of healthy) t.is((await healthyFlow.intent(textAt(intent, 'id'))).status, 'channel_settled');
  t.is((await stuckFlow.intent(textAt(stuck, 'id'))).status, 'succeeded', 'its change rolled back');

  // Fixed, then retried by the operator: it settles on the next pass, and its record is gone.
  await unpoison();
  t.is(await failures.retryNow(textAt(stuck, 'id'), clock.now()), 1);
  await runner.run(job, 'test', 1);
  t.is((await stuckFlow.intent(textAt(stuck, 'id'))).status, 'channel_settled');
  t.deepEqual(
    (await failures.list(100)).filter((failure) => failure.itemId === stuck.id),
    [],
  );
});
