import test from 'ava';
import fc from 'fast-check';
import { PAYMENT_METHODS } from '../../src/catalog/domain/catalog';
import { paymentPosting, pricedPayment } from '../../src/ledger/domain/ledger-postings';
import type { AccountScope } from '../../src/common/mode';
import { MAX_AMOUNT } from '../../src/common/money';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import { MAX_CONVERTED_AT_CREATION, unlockedFx } from '../../src/fx/use-cases/payment-pricing';
import { coveredParts, openSettlement, openSettlementParts, type CoveredPiece } from '../../src/settlements/use-cases/settlement-batch';
import { CoreError, isCoreError } from '../../src/common/core-error';
import { harness } from './harness';
import { edgeShop } from './money-fixtures';

/*
 * Amounts at the edges the contract allows (1 minor unit, 2^53 − 1, conversions that round to 0
 * or pass 2^53 − 1) and settlement batches past 2^53 − 1: every figure exact, nothing throws,
 * what could not be shown exactly is refused up front, the ledger stays whole.
 */

const DAY = 24 * 3600 * 1000;

const setup = edgeShop;

/**
 * A THB wallet payment of net `net` (no fee), channel-settled, booked and released as the payment
 * and release jobs book them; released `index` ms after now, so the payments keep their order.
 */
async function releasedPayment(s: Awaited<ReturnType<typeof setup>>, net: number, index: number): Promise<PaymentIntent> {
  const { intent } = await s.succeededWallet(net, 'THB');
  const now = s.clock.now();
  const settled: PaymentIntent = {
    ...intent,
    status: 'channel_settled',
    net: { amount: net, currency: 'THB' },
    fee: { amount: 0, currency: 'THB' },
    releasedAt: new Date(now.getTime() + index),
    availableAt: now,
  };
  await s.storage.intents.update(settled);
  await s.funds.book(settled, now);
  await s.funds.release(settled, now);
  return settled;
}

test('every catalog amount from 1 to 2^53 − 1 in every settlement currency is priced exactly or refused at creation, and books without a throw', async (t) => {
  const h = harness();
  const settlementCurrencies = ['THB', 'IDR', 'USD', 'SGD', 'PHP', 'MYR'];
  const pairs = PAYMENT_METHODS.flatMap((entry) => entry.currencies.map((currency) => ({ method: entry.method, currency })));
  const amounts = fc.oneof(
    fc.constantFrom(1, 2, 99, MAX_AMOUNT, MAX_AMOUNT - 1, MAX_CONVERTED_AT_CREATION),
    fc.integer({ min: 1, max: MAX_AMOUNT }),
    fc.integer({ min: 1, max: 1_000 }),
  );
  let priced = 0;
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...pairs), fc.constantFrom(...settlementCurrencies), amounts, async ({ method, currency }, settlementCurrency, amount) => {
      try {
        await h.pricing.assertConvertible(amount, currency, settlementCurrency);
      } catch (error) {
        // Refused up front only for a conversion past half of 2^53 − 1, with the field named.
        if (!(isCoreError(error) && error.code === 'invalid_parameter' && error.param === 'amount')) throw error;
        refused += 1;
        return;
      }
      const now = h.clock.now();
      const intent: PaymentIntent = {
        id: 'pi_P',
        merchantId: 'mch_P',
        mode: 'test',
        amount,
        currency,
        merchantOrderId: 'o',
        status: 'succeeded',
        metadata: {},
        ...(currency === settlementCurrency ? {} : { fx: unlockedFx(currency, settlementCurrency, method) }),
        created: now,
        updated: now,
        version: 0,
      };
      const rate = await h.pricing.rateFor(intent, settlementCurrency);
      const result = h.pricing.onChannelSettled(intent, method, settlementCurrency, rate);
      const payment = pricedPayment(result);
      if (!payment) throw new Error(`${amount} ${currency} → ${settlementCurrency} by ${method} was not priced`);
      const { fee, net } = payment;
      if (!Number.isSafeInteger(fee.amount) || !Number.isSafeInteger(net.amount) || fee.amount < 0 || net.amount < 0)
        throw new Error(`inexact ${fee.amount}/${net.amount}`);
      if (currency === settlementCurrency && BigInt(fee.amount) + BigInt(net.amount) !== BigInt(amount)) throw new Error('fee + net is not the amount');
      const posting = paymentPosting(payment, now);
      const sum = posting.entries.reduce((total, entry) => total + BigInt(entry.amount), 0n);
      if (sum !== 0n) throw new Error('the posting does not balance');
      priced += 1;
    }),
    { numRuns: 2_000 },
  );
  t.true(priced > 0 && refused > 0, `priced ${priced}, refused ${refused}`);
});

test('creating an intent that would convert past half of 2^53 − 1 is refused with param amount; a rate outage refuses nothing', async (t) => {
  const h = harness();
  const create = h.createPaymentIntent();
  const scope: AccountScope = { merchantId: 'mch_C', mode: 'test' };
  const input = { scope, settlementCurrency: 'IDR', currency: 'USD', paymentMethod: 'alipay_plus', merchantOrderId: 'big' };
  // 10^11 US cents (1 billion USD) ≈ 1.6 × 10^15 IDR minor units: fits. 4 × 10^11 cents ≈ 6.5 × 10^15
  // still fits in 2^53 − 1 today, but not in half of it: a doubled rate would pass it.
  const fits = await create.execute({ ...input, amount: 100_000_000_000 });
  t.is(fits.intent.amount, 100_000_000_000);
  const error = await t.throwsAsync(() => create.execute({ ...input, merchantOrderId: 'bigger', amount: 400_000_000_000 }), { instanceOf: CoreError });
  t.like(error, { code: 'invalid_parameter', param: 'amount' });
  t.regex(error?.message ?? '', /IDR/);
  t.is((await h.storage.intents.list(scope, {}, { limit: 10 })).data.length, 1, 'nothing stored');
  // In the settlement currency itself every amount up to 2^53 − 1 is exact.
  await create.execute({ ...input, currency: 'IDR', paymentMethod: 'qris', merchantOrderId: 'max', amount: MAX_AMOUNT });
  h.rates.down = true;
  await create.execute({ ...input, merchantOrderId: 'outage', amount: 1_000_000_000_000 });
  t.pass();
});

test('a scheduled batch whose nets pass 2^53 − 1 is split into parts that each fit, made together; a manual request settles the oldest part', async (t) => {
  for (const trigger of ['scheduled', 'manual'] as const) {
    const s = await setup('THB');
    const nets = [MAX_AMOUNT - 10, MAX_AMOUNT - 20, 5, MAX_AMOUNT - 30];
    for (const [index, net] of nets.entries()) await releasedPayment(s, net, index);
    const available = (await s.buckets()).available;
    t.is(
      available,
      nets.reduce((sum, net) => sum + BigInt(net), 0n),
      'the balance is exact past 2^53 − 1',
    );
    const period = { start: new Date(0), end: new Date(s.clock.now().getTime() + DAY) };
    const made = await s.storage.uow.run((transaction) =>
      openSettlementParts(transaction.bind(s.settlementDeps), {
        merchant: s.merchant,
        scope: s.scope,
        trigger,
        releasedBefore: period.end,
        ...(trigger === 'scheduled' ? { period } : {}),
      }),
    );
    if (trigger === 'scheduled') {
      t.deepEqual(
        made.map((settlement) => [settlement.part, settlement.payments, settlement.amount.amount]),
        [
          [1, 1, MAX_AMOUNT - 10],
          [2, 2, MAX_AMOUNT - 20 + 5],
          [3, 1, MAX_AMOUNT - 30],
        ],
      );
      t.is((await s.buckets()).available, 0n);
    } else {
      t.deepEqual(
        made.map((settlement) => [settlement.payments, settlement.amount.amount]),
        [[1, MAX_AMOUNT - 10]],
      );
      const next = await s.storage.uow.run((transaction) =>
        openSettlement(transaction.bind(s.settlementDeps), { merchant: s.merchant, scope: s.scope, trigger, releasedBefore: period.end }),
      );
      t.is(next.amount.amount, MAX_AMOUNT - 20 + 5, 'the next request settles the next part');
    }
    for (const settlement of made) t.true(Number.isSafeInteger(settlement.amount.amount) && settlement.amount.amount <= MAX_AMOUNT);
    t.true((await s.verify()).ok);
  }
});

test('property: settlement parts net every negative piece in the first, keep the others in order, each fit in 2^53 − 1 above zero, and sum to the exact total', (t) => {
  const positive = fc.oneof(fc.integer({ min: 1, max: MAX_AMOUNT }), fc.constantFrom(1, MAX_AMOUNT, MAX_AMOUNT - 1, Math.floor(MAX_AMOUNT / 2) + 1));
  const negative = fc.oneof(fc.integer({ min: -MAX_AMOUNT, max: -1 }), fc.constantFrom(-1, -MAX_AMOUNT, -1500));
  let split = 0;
  fc.assert(
    fc.property(fc.array(fc.oneof({ weight: 3, arbitrary: positive }, { weight: 1, arbitrary: negative }), { minLength: 1, maxLength: 40 }), (amounts) => {
      const total = amounts.reduce((sum, amount) => sum + BigInt(amount), 0n);
      fc.pre(total > 0n);
      const pieces: CoveredPiece[] = amounts.map((amount) => ({ amount: BigInt(amount) }));
      const parts = coveredParts(pieces);
      if (parts.flat().length !== pieces.length || parts.reduce((sum, part) => sum + part.reduce((s2, piece) => s2 + piece.amount, 0n), 0n) !== total)
        throw new Error('the parts do not add up to the total');
      const negatives = pieces.filter((piece) => piece.amount < 0n);
      if (!negatives.every((piece) => parts[0].includes(piece))) throw new Error('a negative piece is not in the first part');
      const positives = parts.flat().filter((piece) => piece.amount >= 0n);
      if (positives.some((piece, index) => piece !== pieces.filter((candidate) => candidate.amount >= 0n)[index])) throw new Error('positive pieces reordered');
      for (const [index, part] of parts.entries()) {
        const sum = part.reduce((s2, piece) => s2 + piece.amount, 0n);
        if (sum <= 0n || sum > BigInt(MAX_AMOUNT)) throw new Error(`part ${index} sums to ${sum}`);
        // Greedy: the next part's first piece would not have fitted in this one.
        const next = parts[index + 1];
        if (next && sum + next[0].amount <= BigInt(MAX_AMOUNT)) throw new Error(`part ${index} was cut early`);
      }
      if (parts.length > 1) split += 1;
    }),
    { numRuns: 1_000 },
  );
  t.true(split > 0, 'some runs passed 2^53 − 1 and were split');
});

test('a manual request pays a positive available balance whose payments pass 2^53 − 1 beside a larger negative balance (the simulator, seed 1)', async (t) => {
  const s = await setup('THB');
  const pay = (net: number, index: number) => releasedPayment(s, net, index);
  const settle = () =>
    s.storage.uow.run((transaction) =>
      openSettlement(transaction.bind(s.settlementDeps), {
        merchant: s.merchant,
        scope: s.scope,
        trigger: 'manual',
        releasedBefore: new Date(s.clock.now().getTime() + DAY),
      }),
    );
  // Two payments paid out, then disputed: their holds overdraw available by about 1.8 × 10^16.
  const paidOut = [await pay(MAX_AMOUNT - 10, 0), await pay(MAX_AMOUNT - 20, 1)];
  await settle();
  await settle();
  for (const [index, payment] of paidOut.entries()) await s.funds.disputeOpened(payment, `dp_${index}`, s.clock.now());
  t.is((await s.buckets()).available, -BigInt(2 * MAX_AMOUNT - 30));
  // Three more released: about 2.7 × 10^16 waits beside it, 9 × 10^15 − 20 above zero in all.
  for (const [index, net] of [MAX_AMOUNT - 30, MAX_AMOUNT - 40, MAX_AMOUNT - 50].entries()) await pay(net, 10 + index);
  const available = (await s.buckets()).available;
  t.is(available, BigInt(MAX_AMOUNT) - 90n);
  const settlement = await settle();
  t.is(BigInt(settlement.amount.amount), available, 'one request pays the whole positive balance');
  t.is((await s.buckets()).available, 0n);
  t.true((await s.verify()).ok);
});
