import test from 'ava';
import { DEFAULT_FEE_SCHEDULE, type FeeSchedule } from '../../src/fx/domain/fees';
import { CoreError } from '../../src/common/core-error';
import type { FxRateSource } from '../../src/fx/ports/fx-rate-source.port';
import { QuoteFx } from '../../src/fx/use-cases/quote-fx.use-case';

/** Mid rates of a fixed table; records what was asked. */
class TableRates implements FxRateSource {
  readonly asked: string[] = [];
  constructor(private readonly table: Record<string, string>) {}
  async midRate(from: string, to: string): Promise<string> {
    this.asked.push(`${from}/${to}`);
    const rate = this.table[`${from}/${to}`];
    if (rate === undefined) throw new CoreError('unsupported_currency_pair', 'validation', 'No rate.', { param: 'to' });
    return rate;
  }
}

const FEES: FeeSchedule = { ...DEFAULT_FEE_SCHEDULE, promptpay: { percent: '1.65', fixed: { USD: 10 } } };

function quoteFx(spreadBps = 50) {
  const rates = new TableRates({ 'THB/USD': '0.0285', 'USD/JPY': '150', 'USD/KWD': '0.3056', 'THB/JPY': '5', 'USD/IDR': '16235' });
  return { rates, quote: new QuoteFx({ rates, settings: { spreadBps, fees: FEES } }) };
}

test('the rate is the mid rate less the spread, as a decimal string', async (t) => {
  const { quote } = quoteFx();
  t.deepEqual(await quote.execute({ from: 'THB', to: 'USD' }), { indicative: true, from: 'THB', to: 'USD', rate: '0.0283575' });
  t.is((await quote.execute({ from: 'USD', to: 'JPY' })).rate, '149.25');
  t.is((await quoteFx(0).quote.execute({ from: 'USD', to: 'JPY' })).rate, '150');
});

test('estimated converts the amount at the quoted rate, rounding half-even to the target minor units', async (t) => {
  const { quote } = quoteFx(0);
  // 1 cent at 150 JPY/USD = 1.5 yen → 2; 3 cents = 4.5 → 4
  t.deepEqual((await quote.execute({ from: 'USD', to: 'JPY', amount: 1 })).estimated, { amount: 2, currency: 'JPY' });
  t.deepEqual((await quote.execute({ from: 'USD', to: 'JPY', amount: 3 })).estimated, { amount: 4, currency: 'JPY' });
  // 100 cents at 0.3056 KWD = 305.6 fils → 306
  t.deepEqual((await quote.execute({ from: 'USD', to: 'KWD', amount: 100 })).estimated, { amount: 306, currency: 'KWD' });
  // 10 satang at 5 JPY/THB = 0.5 yen → 0; 30 satang = 1.5 → 2
  t.is((await quote.execute({ from: 'THB', to: 'JPY', amount: 10 })).estimated?.amount, 0);
  t.is((await quote.execute({ from: 'THB', to: 'JPY', amount: 30 })).estimated?.amount, 2);
  t.is((await quote.execute({ from: 'THB', to: 'JPY', amount: 0 })).estimated?.amount, 0);
});

test('with a payment method, estimated is net of its fee in the target currency', async (t) => {
  const { quote } = quoteFx();
  // 100 000 satang × 0.0283575 = 2835.75 → 2836 cents; fee 1.65 % = 46.794 → 47, + 10 fixed USD
  const quoted = await quote.execute({ from: 'THB', to: 'USD', amount: 100_000, paymentMethod: 'promptpay' });
  t.deepEqual(quoted, { indicative: true, from: 'THB', to: 'USD', rate: '0.0283575', estimated: { amount: 2836 - 57, currency: 'USD' } });
  t.is((await quote.execute({ from: 'THB', to: 'USD', amount: 100_000 })).estimated?.amount, 2836);
  // alipay_plus collects USD. IDR has 2 decimals in ISO 4217: 10 000 USD × 16153.825 = 16 153 825 000 sen; fee 2.8 % = 452 307 100
  t.deepEqual((await quote.execute({ from: 'USD', to: 'IDR', amount: 1_000_000, paymentMethod: 'alipay_plus' })).estimated, {
    amount: 16_153_825_000 - 452_307_100,
    currency: 'IDR',
  });
  // A method without an amount: rate only.
  t.false('estimated' in (await quote.execute({ from: 'THB', to: 'USD', paymentMethod: 'promptpay' })));
});

test('from == to is rate "1" and asks no rate source', async (t) => {
  const { quote, rates } = quoteFx();
  t.deepEqual(await quote.execute({ from: 'THB', to: 'THB', amount: 10_000, paymentMethod: 'promptpay' }), {
    indicative: true,
    from: 'THB',
    to: 'THB',
    rate: '1',
    estimated: { amount: 10_000 - 165, currency: 'THB' },
  });
  t.is((await quote.execute({ from: 'JPY', to: 'JPY', amount: Number.MAX_SAFE_INTEGER })).estimated?.amount, Number.MAX_SAFE_INTEGER);
  t.deepEqual(rates.asked, []);
});

test('each bad input is 400 invalid_parameter naming its field, before any rate is fetched', async (t) => {
  const { quote, rates } = quoteFx();
  const cases: Array<[input: Parameters<QuoteFx['execute']>[0], param: string]> = [
    [{ from: 'XYZ', to: 'USD' }, 'from'],
    [{ from: 'thb', to: 'USD' }, 'from'],
    [{ from: 'THB', to: 'ABC' }, 'to'],
    [{ from: 'THB', to: '' }, 'to'],
    [{ from: 'THB', to: 'USD', paymentMethod: 'visa' }, 'payment_method'],
    [{ from: 'THB', to: 'USD', paymentMethod: 'toString' }, 'payment_method'],
    [{ from: 'THB', to: 'USD', paymentMethod: 'paynow' }, 'payment_method'], // collects SGD only
    [{ from: 'USD', to: 'THB', paymentMethod: 'promptpay' }, 'payment_method'],
    [{ from: 'THB', to: 'USD', amount: -1 }, 'amount'],
    [{ from: 'THB', to: 'USD', amount: 1.5 }, 'amount'],
    [{ from: 'THB', to: 'USD', amount: Number.MAX_SAFE_INTEGER + 1 }, 'amount'],
  ];
  for (const [input, param] of cases) {
    const error = await t.throwsAsync(quote.execute(input), { instanceOf: CoreError });
    t.like(error, { code: 'invalid_parameter', category: 'validation', param }, JSON.stringify(input));
  }
  t.deepEqual(rates.asked, []);
});

test('an amount that converts past 2^53 − 1 is refused naming amount', async (t) => {
  const { quote } = quoteFx();
  const error = await t.throwsAsync(quote.execute({ from: 'USD', to: 'IDR', amount: Number.MAX_SAFE_INTEGER }), { instanceOf: CoreError });
  t.like(error, { code: 'invalid_parameter', param: 'amount' });
});

test("the rate source's refusal passes through", async (t) => {
  const { quote } = quoteFx();
  const error = await t.throwsAsync(quote.execute({ from: 'EUR', to: 'GBP' }), { instanceOf: CoreError });
  t.like(error, { code: 'unsupported_currency_pair', param: 'to' });
});

test('a spread outside 0..9999 bps is a start-up bug', (t) => {
  for (const spreadBps of [-1, 10_000, 2.5])
    t.throws(() => new QuoteFx({ rates: new TableRates({}), settings: { spreadBps, fees: FEES } }), { instanceOf: CoreError });
});
