import test from 'ava';
import { paymentFlow } from './helpers/payment-flow';
import { appOnFakeClock } from './helpers/worker-tick';
import { numberAt, objectAt, type JsonObject } from './helpers/json';

const { app, tick } = appOnFakeClock();

const thb = (amount: number): JsonObject[] => [{ amount, currency: 'THB' }];

test.serial('a new merchant sees zeros in its settlement currency', async (t) => {
  const shop = await app().merchant();
  const res = await app().request({ method: 'GET', url: '/v1/balance', key: shop.testKey });
  t.is(res.statusCode, 200);
  t.deepEqual(res.result, {
    object: 'balance',
    available: thb(0),
    pending: thb(0),
    dispute_hold: thb(0),
    next_settlement: [{ amount: 0, currency: 'THB', trigger: 'scheduled' }],
  });
});

test.serial('a payment shows in pending once paid and moves to available when the release timer fires', async (t) => {
  const shop = await app().merchant();
  const flow = paymentFlow(app(), shop.testKey);
  const balance = async (): Promise<JsonObject> => flow.get('/v1/balance');
  const intent = await flow.createIntent({ amount: 25_000 });
  await flow.attempt(intent.id);
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  const net = numberAt(paid, 'net', 'amount');
  t.is(net, 25_000 - numberAt(paid, 'fee', 'amount'));
  t.like(await balance(), { available: thb(0), pending: thb(net), dispute_hold: thb(0) });

  // A replayed success (the same callback again, through the reconciler's path) books nothing twice.
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.like(await balance(), { pending: thb(net) });

  await tick();
  await tick();
  t.is((await flow.intent(intent.id)).status, 'channel_settled');
  t.like(await balance(), { available: thb(0), pending: thb(net) }, 'channel settlement alone releases nothing');
  await flow.advance(intent.id, 'release');
  await tick();
  t.like(await balance(), { available: thb(net), pending: thb(0), dispute_hold: thb(0) });
});

test.serial("one merchant's payments never show in another's balance, nor test money in live", async (t) => {
  const payer = await app().merchant();
  const other = await app().merchant();
  const flow = paymentFlow(app(), payer.testKey);
  const intent = await flow.createIntent({ amount: 10_000 });
  await flow.attempt(intent.id);
  await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.like((await app().request({ method: 'GET', url: '/v1/balance', key: other.testKey })).result, { pending: thb(0) });
  const live = await app().request({ method: 'GET', url: '/v1/balance', key: await payer.liveKey() });
  t.is(live.statusCode, 200);
  t.like(live.result, { pending: thb(0), available: thb(0) });
});

test.serial('the balance needs a key', async (t) => {
  const res = await app().request({ method: 'GET', url: '/v1/balance' });
  t.is(res.statusCode, 401);
  t.like(res.result, { error: { code: 'authentication_required' } });
});
