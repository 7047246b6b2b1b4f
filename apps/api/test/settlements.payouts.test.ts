import test from 'ava';
import { MerchantRepository, PaySettlements } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { ScriptedGateway } from './helpers/scripted-payout-gateway';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp, type TestMerchant } from './helpers/test-app';
import { moneyTick, runJob } from './helpers/worker-tick';
import { apiObjectAt, numberAt, objectAt } from './helpers/json';

const clock = new FakeClock(new Date());
const gateway = new ScriptedGateway();
let t0: TestApp;

test.before(async () => {
  t0 = await startTestApp({ clock, payoutGateway: gateway });
});
test.after.always(async () => t0?.close());

const tick = moneyTick(() => t0, clock);

async function manualShopWithFunds(amount: number): Promise<{ shop: TestMerchant; net: number }> {
  const shop = await t0.merchant();
  await t0.app.get<MerchantRepository>(MerchantRepository).updateSettings(shop.id, { settlementSchedule: 'manual' });
  const flow = paymentFlow(t0, shop.testKey);
  const intent = await flow.createIntent({ amount });
  await flow.attempt(intent.id);
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  await tick();
  await tick();
  await flow.advance(intent.id, 'release');
  await tick();
  return { shop, net: numberAt(paid, 'net', 'amount') };
}

const thb = (amount: number) => [{ amount, currency: 'THB' }];

test.serial('a failed payout answers the settlement failed, returns the funds to available and lets the payment be settled again', async (t) => {
  const { shop, net } = await manualShopWithFunds(20_000);
  const flow = paymentFlow(t0, shop.testKey);
  gateway.next = { status: 'failed', failureReason: 'account_closed' };
  const res = await t0.request({ method: 'POST', url: '/v1/settlements', key: shop.testKey, idempotencyKey: unique() });
  t.is(res.statusCode, 201);
  const failed = apiObjectAt(res.result);
  t.like(failed, { status: 'failed', amount: { amount: net, currency: 'THB' }, payments: 1 });
  t.false('failure_reason' in failed, 'operator detail stays inside');
  t.like(await flow.get('/v1/balance'), { available: thb(net) });
  t.deepEqual(await flow.eventTypes(failed.id), ['settlement.pending', 'settlement.processing', 'settlement.failed']);

  gateway.next = { status: 'paid' };
  const again = await t0.request({ method: 'POST', url: '/v1/settlements', key: shop.testKey, idempotencyKey: unique() });
  t.like(again.result, { status: 'paid', amount: { amount: net, currency: 'THB' }, payments: 1 });
  t.like(await flow.get('/v1/balance'), { available: thb(0) });
});

test.serial('a payout still processing is answered processing and finished by the payout job', async (t) => {
  const { shop, net } = await manualShopWithFunds(30_000);
  const flow = paymentFlow(t0, shop.testKey);
  gateway.next = { status: 'processing' };
  const created = apiObjectAt((await t0.request({ method: 'POST', url: '/v1/settlements', key: shop.testKey, idempotencyKey: unique() })).result);
  t.like(created, { status: 'processing', amount: { amount: net, currency: 'THB' } });
  t.like(await flow.get('/v1/balance'), { available: thb(0) });

  gateway.queryAnswer = { status: 'paid' };
  await runJob(t0.app, PaySettlements);
  t.like(await flow.get(`/v1/settlements/${created.id}`), { status: 'paid' });
  t.is(gateway.sent.filter((reference) => reference === created.id).length, 1, 'sent once, then asked');
  gateway.queryAnswer = undefined;
  gateway.next = { status: 'paid' };
});
