import test from 'ava';
import { createMerchantWithAdmin, serviceEnvironment, startService, startWorker, type ServiceEnvironment } from './process';

let environment: ServiceEnvironment;
test.before(async () => {
  environment = await serviceEnvironment();
});
test.after.always(async () => environment?.cleanup());

test('the API and the worker run as separate processes on one database (npm run start:api / start:worker)', async (t) => {
  const key = (await createMerchantWithAdmin(environment.env, { name: 'Split' })).testApiKey;

  const api = await startService(environment.env, 'apps/api/dist/src/main.js', []);
  const worker = await startWorker(environment.env);
  try {
    t.false(api.output().includes('demo merchant'), 'only `npm start` seeds a demo merchant');
    const res = await fetch(`${api.baseUrl}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'split-1', 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 100, currency: 'THB', merchant_order_id: 'split-1' }),
    });
    t.is(res.status, 201);
    const health = await fetch(`${api.baseUrl}/health`);
    t.deepEqual(await health.json(), { status: 'ok' });
  } finally {
    t.is(await api.stop(), 0);
    t.is(await worker.stop(), 0);
  }
});
