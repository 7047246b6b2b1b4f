import test from 'ava';
import { CreateMerchant, type AccountScope } from '@payments/core';
import { disputeInterleavings } from '@payments/core/dist/test/use-cases/dispute-interleavings';
import { assertLedgerVerifies, assertMerchantMoney } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { unique } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';
import { numberAt, objectAt, type JsonObject } from './helpers/json';

/*
 * A wallet payment locks its rate, and so gets its net, only when the channel settles: a dispute
 * can open before that and hold nothing. Whatever the order of opening, ruling, pricing and
 * release, and whatever the ruling, a lost dispute takes the money back and lost or disputed money
 * never reaches a payout. Through the real routes, simulator and jobs, on SQLite or MariaDB.
 */

const { app, tick } = appOnFakeClock();
const DISPUTE_FEE = 1500;

type Outcome = 'won' | 'lost' | 'open';

const thb = (amount: number): JsonObject[] => [{ amount, currency: 'THB' }];

for (const steps of disputeInterleavings()) {
  for (const outcome of ['won', 'lost', 'open'] as Outcome[]) {
    test.serial(`${steps.join(' > ')}, dispute ${outcome}: the buckets hold what they should and only undisputed money is paid out`, async (t) => {
      const suffix = unique('shop');
      const created = await app()
        .app.get(CreateMerchant)
        .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementSchedule: 'manual' });
      const key = created.testApiKey.secret;
      const scope: AccountScope = { merchantId: created.merchant.id, mode: 'test' };
      const flow = paymentFlow(app(), key);
      const intent = await flow.createIntent({ amount: 100_000, currency: 'USD', payment_method: 'alipay_plus' });
      await flow.attempt(intent.id, { payment_method: 'alipay_plus' });
      t.is(objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result).status, 'succeeded');

      for (const step of steps) {
        if (step === 'open') t.is((await flow.simulate(intent.id, { outcome: 'dispute_opened' })).statusCode, 200);
        if (step === 'rule' && outcome !== 'open') t.is((await flow.simulate(intent.id, { outcome: `dispute_${outcome}` })).statusCode, 200);
        if (step === 'price') {
          for (let i = 0; i < 3 && (await flow.intent(intent.id)).status !== 'channel_settled'; i += 1) await tick();
          t.is((await flow.intent(intent.id)).status, 'channel_settled');
        }
        if (step === 'release') {
          t.is((await flow.advance(intent.id, 'release')).statusCode, 200);
          await tick();
        }
      }

      const net = numberAt(await flow.intent(intent.id), 'net', 'amount');
      t.true(Number.isSafeInteger(net) && net > 0);
      const expected =
        outcome === 'lost'
          ? { available: thb(-DISPUTE_FEE), pending: thb(0), dispute_hold: thb(0) }
          : outcome === 'won'
            ? { available: thb(net), pending: thb(0), dispute_hold: thb(0) }
            : // Held, whether the payment was priced before the dispute opened or after (then its net goes straight to the hold).
              { available: thb(0), pending: thb(0), dispute_hold: thb(net) };
      t.like(await flow.get('/v1/balance'), expected);

      const settle = await flow.post('/v1/settlements', {});
      if (outcome === 'won') {
        t.is(settle.statusCode, 201, settle.payload);
        t.like(settle.result, { amount: { amount: net, currency: 'THB' }, payments: 1 });
      } else {
        t.is(settle.statusCode, 409, settle.payload);
        t.like(settle.result, { error: { code: 'nothing_to_settle' } });
      }
      await assertLedgerVerifies(app());
      await assertMerchantMoney(app(), flow, { scope, key, currency: 'THB' });
    });
  }
}
