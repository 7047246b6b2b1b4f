import test from 'ava';
import { CreateMerchant, Ledger, MAX_AMOUNT, paymentPosting, VerifyLedger, type AccountScope } from '@payments/core';
import { paymentFlow } from './helpers/payment-flow';
import { unique } from './helpers/test-app';
import { appOnFakeClock } from './helpers/worker-tick';
import { numberAt, objectAt } from './helpers/json';

/*
 * Amounts at the edges the contract allows, through the real routes, simulator and jobs, on
 * SQLite or (with PAYMENTS_TEST_DATABASE_URL) MariaDB.
 */

const { clock, app, tick } = appOnFakeClock();

async function shop(settlementCurrency: string): Promise<{ scope: AccountScope; flow: ReturnType<typeof paymentFlow>; key: string }> {
  const suffix = unique('edge');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency });
  const key = created.testApiKey.secret;
  return { scope: { merchantId: created.merchant.id, mode: 'test' }, flow: paymentFlow(app(), key), key };
}

async function ledgerIsWhole() {
  return await app().app.get(VerifyLedger).execute({ limit: 20 });
}

test.serial('1 IDR paid with alipay_plus to a THB merchant: fee and net round to 0, the intent settles and nothing blocks the job', async (t) => {
  const { flow } = await shop('THB');
  const intent = await flow.createIntent({ amount: 1, currency: 'IDR', payment_method: 'alipay_plus' });
  t.is((await flow.attempt(intent.id, { payment_method: 'alipay_plus' })).statusCode, 201);
  const paid = objectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  t.is(paid.status, 'succeeded');
  t.like(paid.fx, { locked: false, lock_point: 'on_channel_settled' });
  for (let i = 0; i < 3; i += 1) await tick();
  const settled = await flow.intent(intent.id);
  t.like(settled, { status: 'channel_settled', fee: { amount: 0, currency: 'THB' }, net: { amount: 0, currency: 'THB' }, fx: { locked: true } });
  // A THB payment behind it in the same job still settles.
  const next = await flow.createIntent({ amount: 10_000, currency: 'THB', payment_method: 'promptpay' });
  await flow.attempt(next.id, { payment_method: 'promptpay' });
  await flow.simulate(next.id, { outcome: 'succeeded' });
  for (let i = 0; i < 3; i += 1) await tick();
  t.is((await flow.intent(next.id)).status, 'channel_settled');
  t.like(await flow.get('/v1/balance'), { pending: [{ amount: 10_000 - 165, currency: 'THB' }] });
  t.like(await ledgerIsWhole(), { ok: true });
});

test.serial('QR payments in IDR of 1, 100 and 2^53 − 1 minor units succeed, settle and book exactly in every settlement currency', async (t) => {
  // A QR rate locks when paid, so the channel report itself prices and books: 1 IDR is 0 of any
  // other catalog currency, and the all-zero posting used to throw there on every retry.
  for (const settlementCurrency of ['THB', 'USD', 'SGD', 'PHP', 'MYR', 'IDR']) {
    const { flow } = await shop(settlementCurrency);
    for (const amount of [1, 100, MAX_AMOUNT - 91]) {
      const intent = await flow.createIntent({ amount, currency: 'IDR', payment_method: 'qris' });
      await flow.attempt(intent.id, { payment_method: 'qris' });
      const paid = await flow.simulate(intent.id, { outcome: 'succeeded' });
      t.is(paid.statusCode, 200, `${amount} IDR → ${settlementCurrency}: ${paid.payload.slice(0, 200)}`);
      const result = objectAt(paid.result);
      t.is(result.status, 'succeeded');
      const [net, fee] = [numberAt(result, 'net', 'amount'), numberAt(result, 'fee', 'amount')];
      t.true(Number.isSafeInteger(net) && Number.isSafeInteger(fee) && net >= 0);
      if (settlementCurrency === 'IDR') t.is(fee + net, amount);
    }
  }
  for (let i = 0; i < 3; i += 1) await tick();
  t.like(await ledgerIsWhole(), { ok: true });
});

test.serial('a QR payment of 2^53 − 1 minor units in the settlement currency succeeds, settles and books exactly', async (t) => {
  const { flow } = await shop('IDR');
  // The last two digits choose simulator outcomes: 00 is a plain payment.
  const amount = MAX_AMOUNT - 91;
  const intent = await flow.createIntent({ amount, currency: 'IDR', payment_method: 'qris' });
  t.is(intent.amount, amount);
  t.is((await flow.attempt(intent.id, { payment_method: 'qris' })).statusCode, 201);
  const paid = await flow.simulate(intent.id, { outcome: 'succeeded' });
  t.is(paid.statusCode, 200, paid.payload);
  const result = objectAt(paid.result);
  t.is(result.status, 'succeeded');
  const net = numberAt(result, 'net', 'amount');
  t.is(numberAt(result, 'fee', 'amount') + net, amount);
  for (let i = 0; i < 3; i += 1) await tick();
  t.is((await flow.intent(intent.id)).status, 'channel_settled');
  t.like(await flow.get('/v1/balance'), { pending: [{ amount: net, currency: 'IDR' }] });
  t.like(await ledgerIsWhole(), { ok: true });
});

test.serial('an intent that would convert past half of 2^53 − 1 of the settlement currency is refused 400 with param amount', async (t) => {
  const { flow } = await shop('IDR');
  const res = await flow.post('/v1/payment_intents', {
    amount: 400_000_000_000,
    currency: 'USD',
    merchant_order_id: unique('o'),
    payment_method: 'alipay_plus',
  });
  t.is(res.statusCode, 400);
  t.like(res.result, { error: { code: 'invalid_parameter', param: 'amount' } });
  t.is((await flow.post('/v1/payment_intents', { amount: 100_000_000_000, currency: 'USD', merchant_order_id: unique('o') })).statusCode, 201);
});

test.serial('amounts JSON cannot hold exactly are refused 400, as before', async (t) => {
  const { key } = await shop('THB');
  for (const literal of ['9007199254740992', '9007199254740993', '1e400', '100.5']) {
    const res = await app().server.inject({
      method: 'POST',
      url: '/v1/payment_intents',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': unique('k'), 'content-type': 'application/json' },
      payload: `{"amount": ${literal}, "currency": "THB", "merchant_order_id": "${unique('o')}"}`,
    });
    t.is(res.statusCode, 400, literal);
    t.like(JSON.parse(res.payload), { error: { code: 'invalid_parameter', param: 'amount' } }, literal);
  }
});

test.serial('a balance past 2^53 − 1 is answered as an exact JSON integer, not a rounded double', async (t) => {
  const { scope, key } = await shop('THB');
  const ledger = app().app.get<Ledger>(Ledger);
  for (let i = 0; i < 3; i += 1) {
    await ledger.post(
      paymentPosting(
        {
          id: `pi_${unique('BIG').replace(/[^A-Za-z0-9]/g, '')}`,
          ...scope,
          net: { amount: MAX_AMOUNT - 1, currency: 'THB' },
          fee: { amount: 1, currency: 'THB' },
        },
        clock.now(),
      ),
    );
  }
  const res = await app().request({ method: 'GET', url: '/v1/balance', key });
  t.is(res.statusCode, 200);
  t.regex(String(res.headers['content-type']), /^application\/json/);
  // 3 × (2^53 − 2) = 27021597764222970; as a double it is 27021597764222968. The test reads the
  // text: JSON.parse would round what it checks.
  t.regex(res.payload, /"pending":\[\{"amount":27021597764222970,"currency":"THB"\}\]/);
  t.regex(res.payload, /"available":\[\{"amount":0,"currency":"THB"\}\]/);
  t.like(await ledgerIsWhole(), { ok: true });
});
