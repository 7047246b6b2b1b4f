import test from 'ava';
import type { Knex } from 'knex';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { ReconcileRefunds } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { createKnex } from '@payments/storage-sql';
import { AppConfig } from '../src/container';
import type { Config } from '../src/config';
import { apiObjectAt, apiObjectsAt, jsonAt, numberAt, type ApiObject } from './helpers/json';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';

const QUIET_S = 900;
const clock = new FakeClock(new Date());
let t0: TestApp;
let knex: Knex;

test.before(async () => {
  t0 = await startTestApp({ clock, env: { PAYMENTS_REFUND_RECONCILE_AFTER_S: String(QUIET_S) } });
  knex = createKnex(t0.app.get<Config>(AppConfig).databaseUrl);
});
test.after.always(async () => {
  await knex?.destroy();
  await t0?.close();
});

async function pendingRefund(flow: ReturnType<typeof paymentFlow>, amount: number): Promise<{ refund: ApiObject; net: number }> {
  const intent = await flow.createIntent({ amount: 10_000 });
  await flow.attempt(intent.id);
  const paid = (await flow.simulate(intent.id, { outcome: 'succeeded' })).result;
  const refund = apiObjectAt((await flow.post('/v1/refunds', { payment_intent: intent.id, amount })).result);
  return { refund, net: numberAt(paid, 'net', 'amount') };
}

const reconcile = () => runJob(t0.app, ReconcileRefunds, 200);

test.serial('a refund whose notice was lost is settled by the reconciler once it is pending long enough, once', async (t) => {
  const flow = paymentFlow(t0, (await t0.merchant()).testKey);
  const { refund } = await pendingRefund(flow, 1_006);
  // The channel declines it in its own book and the notice never comes.
  await knex('simulator_refunds').where({ reference: refund.id }).update({ status: 'failed', failure_code: 'channel_declined', due_at: null });

  await reconcile();
  t.is((await flow.get(`/v1/refunds/${refund.id}`)).status, 'pending', 'not pending long enough yet');

  clock.advance(QUIET_S * 1000);
  t.true((await reconcile()).progressed >= 1);
  t.like(await flow.get(`/v1/refunds/${refund.id}`), { status: 'failed', failure_code: 'channel_declined' });
  const types = apiObjectsAt(await flow.get('/v1/events?limit=100'), 'data')
    .filter((e) => jsonAt(e, 'data', 'id') === refund.id)
    .map((e) => e.type);
  t.deepEqual(types, ['refund.failed', 'refund.created']);
  clock.advance(QUIET_S * 1000);
  t.is((await reconcile()).progressed, 0, 'a settled refund is not asked about again');
});

test.serial('a refund the channel never took (the service stopped before placing it) is placed again, once, and then reported', async (t) => {
  const flow = paymentFlow(t0, (await t0.merchant()).testKey);
  const { refund } = await pendingRefund(flow, 2_000);
  await knex('simulator_refunds').where({ reference: refund.id }).delete();
  await knex('refunds').where({ id: refund.id }).update({ channel_refund_id: null });

  clock.advance(QUIET_S * 1000);
  await reconcile();
  await reconcile();
  t.is((await knex('simulator_refunds').where({ reference: refund.id })).length, 1, 'placed again once, whatever the passes');
  clock.advance(1000);
  await t0.app.get(SimulatorPaymentChannel).tick(100);
  t.like(await flow.get(`/v1/refunds/${refund.id}`), { status: 'succeeded' });
});
