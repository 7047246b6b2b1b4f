import test from 'ava';
import { InMemoryLockManager } from '@payments/in-memory';
import type { PaymentIntentRepository } from '../../src/payments/ports/payment-intent.repository.port';
import { GetCheckoutPage } from '../../src/checkout/use-cases/get-checkout-page.use-case';
import { PayCheckoutSession } from '../../src/checkout/use-cases/pay-checkout-session.use-case';
import { PlaceAttempt } from '../../src/payments/use-cases/place-attempt.use-case';
import { ResolveCheckoutSession } from '../../src/checkout/use-cases/resolve-checkout-session.use-case';
import { SimulateCheckoutPayment } from '../../src/checkout/use-cases/simulate-checkout-payment.use-case';
import { SimulatePayment } from '../../src/payments/use-cases/simulate-payment.use-case';
import { harness } from './harness';

async function setup() {
  const h = harness();
  const { merchant } = await h.newMerchant();
  let intentReads = 0;
  const countingIntents: PaymentIntentRepository = new Proxy(h.storage.intents, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'findById' && typeof value === 'function') {
        return (...args: unknown[]): unknown => {
          intentReads += 1;
          return Reflect.apply(value, target, args);
        };
      }
      return value;
    },
  });
  const create = h.createPaymentIntent();
  const resolve = new ResolveCheckoutSession({ sessions: h.storage.checkoutSessions, intents: countingIntents, digest: h.digest, clock: h.clock });
  const newSession = async (mode: 'test' | 'live' = 'test', expiresIn = 600) => {
    const { intent, checkoutUrl } = await create.execute({
      scope: { merchantId: merchant.id, mode },
      amount: 9900,
      currency: 'THB',
      merchantOrderId: `o-${Math.random()}`,
      expiresIn,
    });
    return { intent, token: checkoutUrl.split('/c/')[1] };
  };
  return { ...h, merchant, resolve, newSession, intentReads: () => intentReads };
}

test('a running session resolves to its intent; unknown and expired are 404 and 410 after the same single lookup', async (t) => {
  const s = await setup();
  const running = await s.newSession();
  t.is((await s.resolve.execute(running.token)).intent.id, running.intent.id);
  const expiring = await s.newSession('test', 60);
  s.clock.advance(61_000);
  const before = s.intentReads();
  t.like(await t.throwsAsync(s.resolve.execute(expiring.token)), { code: 'checkout_session_expired', category: 'gone' });
  t.like(await t.throwsAsync(s.resolve.execute('x'.repeat(43))), { code: 'resource_not_found', category: 'not_found' });
  t.is(s.intentReads(), before, 'neither reads the intent: no extra work tells them apart');
});

test('the page offers the methods of the intent currency and the business name, and creates nothing', async (t) => {
  const s = await setup();
  const { token, intent } = await s.newSession();
  const page = await new GetCheckoutPage({ resolve: s.resolve, merchants: s.storage.merchants, attempts: s.storage.attempts }).execute({ token });
  t.is(page.merchantName, s.merchant.name);
  t.deepEqual(
    page.methods.map((m) => m.method),
    ['promptpay', 'truemoney', 'alipay_plus'],
  );
  t.like(page.state, { status: 'created' });
  t.deepEqual(await s.storage.attempts.listForIntent({ merchantId: s.merchant.id, mode: 'test' }, intent.id), []);
});

test('pay on a live session whose live mode is closed is live_not_enabled and places nothing', async (t) => {
  const s = await setup();
  const { token } = await s.newSession('live');
  let placed = 0;
  const placeAttempt = new PlaceAttempt({
    ...s.statusChange,
    uow: s.storage.uow,
    locks: new InMemoryLockManager(),
    attempts: s.storage.attempts,
    channels: s.noChannels,
    settings: { callbackBaseUrl: 'https://pay.example.com' },
  });
  placeAttempt.execute = async () => ((placed += 1), Promise.reject(new Error('not reached')));
  const pay = new PayCheckoutSession({
    resolve: s.resolve,
    merchants: s.storage.merchants,
    placeAttempt,
    intents: s.storage.intents,
    attempts: s.storage.attempts,
  });
  t.like(await t.throwsAsync(pay.execute({ token, paymentMethod: 'promptpay' })), { code: 'live_not_enabled', category: 'conflict' });
  t.is(placed, 0);
});

test('simulate on a live session answers like an unknown token, even once expired', async (t) => {
  const s = await setup();
  const { token } = await s.newSession('live', 60);
  const simulate = new SimulatePayment({ intents: s.storage.intents, attempts: s.storage.attempts, channels: s.noChannels });
  simulate.execute = () => Promise.reject(new Error('not reached'));
  const use = new SimulateCheckoutPayment({ resolve: s.resolve, simulate, attempts: s.storage.attempts });
  t.like(await t.throwsAsync(use.execute({ token, outcome: 'succeeded' })), { code: 'resource_not_found' });
  s.clock.advance(61_000);
  t.like(await t.throwsAsync(use.execute({ token, outcome: 'succeeded' })), { code: 'resource_not_found' });
});
