import test from 'ava';
import { jsonAt, listAt, textAt } from '../fixtures';
import { createMerchantWithAdmin, merchantApi, serviceEnvironment, startService, startWorker, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

test('two worker processes on one database: each due expiry runs once and writes one event', async (t) => {
  const key = (await createMerchantWithAdmin(environment.env, { name: 'Workers' })).testApiKey;
  // The test polls many intents at once; the per-key limit would answer 429.
  const api = await startService({ ...environment.env, PAYMENTS_RATE_LIMIT_TEST: '0' }, 'apps/api/dist/src/main.js', []);
  const call = merchantApi(api.baseUrl, key);
  const ids: string[] = [];
  try {
    for (let i = 0; i < 12; i += 1) {
      const id = textAt(await call('POST', '/v1/payment_intents', { amount: 1000 + i * 100, currency: 'THB', merchant_order_id: `w-${i}` }), 'id');
      // Half of them hold a pending attempt, which expiry must fail and void once.
      if (i % 2 === 0) await call('POST', `/v1/payment_intents/${id}/attempts`, { payment_method: 'promptpay' });
      await call('POST', `/v1/test/payment_intents/${id}/advance`, { clock: 'expiry' });
      ids.push(id);
    }
    // No Redis for the workers: only the database keeps them from doing one expiry twice.
    const { PAYMENTS_REDIS_URL: _redis, ...env } = environment.env;
    const workers = await Promise.all([startWorker({ ...env, PAYMENTS_TICK_MS: '20' }), startWorker({ ...env, PAYMENTS_TICK_MS: '20' })]);
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const statuses = await Promise.all(ids.map(async (id) => jsonAt(await call('GET', `/v1/payment_intents/${id}`), 'status')));
        if (statuses.every((status) => status === 'expired') || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      for (const worker of workers) t.is(await worker.stop(), 0);
    }
    const events = listAt(await call('GET', '/v1/events?limit=100'), 'data');
    for (const id of ids) {
      t.is(jsonAt(await call('GET', `/v1/payment_intents/${id}`), 'status'), 'expired');
      t.is(events.filter((event) => jsonAt(event, 'data', 'id') === id && jsonAt(event, 'type') === 'payment_intent.expired').length, 1, id);
    }
    for (const id of ids.filter((_, i) => i % 2 === 0)) {
      const attempts = listAt(await call('GET', `/v1/payment_intents/${id}/attempts`), 'data');
      t.deepEqual(
        attempts.map((a) => [jsonAt(a, 'status'), jsonAt(a, 'failure_code')]),
        [['failed', 'expired']],
      );
    }
  } finally {
    await api.stop();
  }
});
