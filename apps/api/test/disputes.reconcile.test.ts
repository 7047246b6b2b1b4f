import test from 'ava';
import type { Knex } from 'knex';
import { KnexSimulatorOrderBook } from '@payments/channel-simulator';
import { ReconcileDisputes } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { createKnex } from '@payments/storage-sql';
import { AppConfig } from '../src/container';
import type { Config } from '../src/config';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, type TestApp } from './helpers/test-app';
import { runJob } from './helpers/worker-tick';
import { apiObjectsAt, numberAt, objectAt, type JsonObject } from './helpers/json';

const QUIET_S = 600;
const clock = new FakeClock(new Date());
let t0: TestApp;
let knex: Knex;

test.before(async () => {
  t0 = await startTestApp({ clock, env: { PAYMENTS_DISPUTE_RECONCILE_AFTER_S: String(QUIET_S) } });
  knex = createKnex(t0.app.get<Config>(AppConfig).databaseUrl);
});
test.after.always(async () => {
  await knex?.destroy();
  await t0?.close();
});

const thb = (amount: number): JsonObject[] => [{ amount, currency: 'THB' }];

/** A paid intent with a dispute the simulator opened and notified; the channel's own record of it. */
async function disputed(flow: ReturnType<typeof paymentFlow>) {
  const intent = await flow.createIntent();
  await flow.attempt(intent.id);
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  await flow.simulate(intent.id, { outcome: 'dispute_opened' });
  const attempt = (await flow.attempts(intent.id))[0];
  const book = new KnexSimulatorOrderBook(knex);
  const order = await knex('simulator_orders').where({ reference: attempt.id }).first<{ id: string }>();
  const channelDispute = (await book.findLatestDispute(order.id))!;
  const dispute = apiObjectsAt(await flow.get('/v1/disputes?limit=100'), 'data').find((d) => d.payment_intent === intent.id)!;
  /** The channel rules in its own book and its notice is lost: nothing reaches the service. */
  const ruleSilently = (status: 'won' | 'lost') => book.updateDispute({ ...channelDispute, status, updated: clock.now() });
  return { intent, net: numberAt(paid, 'net', 'amount'), dispute, ruleSilently };
}

test.serial('a ruling whose notice was lost is applied by the reconciler once the dispute is quiet long enough, once', async (t) => {
  const shop = await t0.merchant();
  const flow = paymentFlow(t0, shop.testKey);
  const { dispute, net, ruleSilently } = await disputed(flow);
  const stillOpen = await disputed(flow);
  await ruleSilently('lost');
  const reconcile = () => runJob(t0.app, ReconcileDisputes, 200);

  await reconcile();
  t.is((await flow.get(`/v1/disputes/${dispute.id}`)).status, 'opened', 'not quiet long enough yet');
  t.like(await flow.get('/v1/balance'), { dispute_hold: thb(2 * net) });

  clock.advance(QUIET_S * 1000);
  t.true((await reconcile()).progressed >= 1);
  const ruled = await flow.get(`/v1/disputes/${dispute.id}`);
  t.like(ruled, { status: 'lost', fee: { amount: 1500, currency: 'THB' } });
  t.truthy(ruled.closed_at);
  t.like(await flow.get(`/v1/disputes/${stillOpen.dispute.id}`), { status: 'opened' });
  t.like(await flow.get('/v1/balance'), { available: thb(-1500), pending: thb(0), dispute_hold: thb(net) });

  // Later passes post nothing twice and leave the open one as it is.
  clock.advance(QUIET_S * 1000);
  await reconcile();
  clock.advance(QUIET_S * 1000);
  await reconcile();
  t.like(await flow.get('/v1/balance'), { available: thb(-1500), pending: thb(0), dispute_hold: thb(net) });
  t.deepEqual(await flow.eventTypes(dispute.id), ['dispute.opened', 'dispute.closed']);
  t.deepEqual(await flow.eventTypes(stillOpen.dispute.id), ['dispute.opened']);

  // The other ruling's notice is lost too: a win returns the hold.
  await stillOpen.ruleSilently('won');
  clock.advance(QUIET_S * 1000);
  await reconcile();
  t.like(await flow.get(`/v1/disputes/${stillOpen.dispute.id}`), { status: 'won' });
  t.like(await flow.get('/v1/balance'), { available: thb(-1500), pending: thb(net), dispute_hold: thb(0) });
});
