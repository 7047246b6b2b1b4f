import { randomBytes } from 'node:crypto';
import test from 'ava';
import { workerTestConfig } from './helpers/worker-test-config';
import { freePort } from '@payments/node-runtime';
import { apiObjectAt, apiObjectsAt, objectAt, type JsonObject } from '@payments/api/dist/test/helpers/json';
import { buildContainer, createLogger, createServer } from '@payments/api';
import { KnexSimulatorOrderBook } from '@payments/channel-simulator';
import { CreateMerchant, LockManager } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { workerLanes } from '../src/jobs';
import { Scheduler } from '../src/scheduler';

test('a worker pass applies a dispute ruling whose notice was lost, once the dispute was quiet for PAYMENTS_DISPUTE_RECONCILE_AFTER_S', async (t) => {
  const port = await freePort();
  const { config, database, remove } = await workerTestConfig('disputes', {
    PAYMENTS_HOST: '127.0.0.1',
    PAYMENTS_PORT: String(port),
    PAYMENTS_CHANNEL_CALLBACK_URL: `http://127.0.0.1:${port}`,
    PAYMENTS_RATE_LIMIT_TEST: '0',
    PAYMENTS_DISPUTE_RECONCILE_AFTER_S: '120',
  });
  const clock = new FakeClock(new Date());
  const app = await buildContainer(config, { clock, logger: createLogger('silent') });
  const server = await createServer(app);
  await server.start();
  try {
    const suffix = randomBytes(6).toString('hex');
    const shop = await app.get(CreateMerchant).execute({ name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password: 'correct horse battery' });
    let n = 0;
    const call = async (method: string, url: string, payload?: object): Promise<JsonObject> => {
      n += 1;
      const res = await server.inject({
        method,
        url,
        headers: { authorization: `Bearer ${shop.testApiKey.secret}`, ...(method === 'POST' ? { 'idempotency-key': `${suffix}-${n}` } : {}) },
        ...(payload ? { payload } : {}),
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.payload}`);
      return objectAt(JSON.parse(res.payload));
    };
    const intent = apiObjectAt(await call('POST', '/v1/payment_intents', { amount: 10000, currency: 'THB', merchant_order_id: `o-${suffix}` }));
    const attempt = apiObjectAt(await call('POST', `/v1/payment_intents/${intent.id}/attempts`, { payment_method: 'promptpay' }));
    await call('POST', `/v1/test/payment_intents/${intent.id}/simulate`, { outcome: 'succeeded' });
    await call('POST', `/v1/test/payment_intents/${intent.id}/simulate`, { outcome: 'dispute_opened' });
    const [dispute] = apiObjectsAt(await call('GET', '/v1/disputes'), 'data');

    // The channel rules on the dispute in its own book; the notice never reaches the service.
    const book = new KnexSimulatorOrderBook(database.knex);
    const order = await database.knex('simulator_orders').where({ reference: attempt.id }).first<{ id: string }>();
    const ruling = (await book.findLatestDispute(order.id))!;
    await book.updateDispute({ ...ruling, status: 'lost', updated: clock.now() });

    const lanes = workerLanes(app);
    for (const mode of ['live', 'test']) {
      t.like(
        lanes.find((lane) => lane.name === mode)?.jobs.find((job) => job.name === 'reconcile-disputes'),
        { everyMs: 60_000 },
        `${mode} lane`,
      );
    }
    const scheduler = () => new Scheduler(lanes, config.tickMs, createLogger('silent'), app.get<LockManager>(LockManager));
    await scheduler().pass();
    t.is((await call('GET', `/v1/disputes/${dispute.id}`)).status, 'opened', 'quiet for less than 120 s');
    clock.advance(120_000);
    await scheduler().pass();
    t.like(await call('GET', `/v1/disputes/${dispute.id}`), { status: 'lost', fee: { amount: 1500, currency: 'THB' } });
    clock.advance(120_000);
    await scheduler().pass();
    t.like(await call('GET', '/v1/balance'), { available: [{ amount: -1500, currency: 'THB' }], dispute_hold: [{ amount: 0, currency: 'THB' }] });
  } finally {
    await server.stop();
    await app.close();
    await remove();
  }
});
