import test from 'ava';
import { CoreError, isRateString } from '@payments/core';
import { BundledFxRateSource, CROSS_RATE_SIGNIFICANT_DIGITS, REFERENCE_RATES } from '../src';

const source = new BundledFxRateSource();
const REQUIRED = ['THB', 'SGD', 'MYR', 'PHP', 'IDR', 'USD', 'EUR', 'GBP', 'JPY', 'KWD', 'CNY', 'HKD', 'AUD'];

test('the shipped table quotes every required currency as a decimal string, with its date', (t) => {
  for (const currency of REQUIRED) t.true(source.currencies().includes(currency), currency);
  for (const rate of Object.values(REFERENCE_RATES.rates)) t.true(isRateString(rate), rate);
  t.regex(source.asOf, /^\d{4}-\d{2}-\d{2}$/);
  t.is(REFERENCE_RATES.base, 'USD');
});

test("rates against USD are the table's own", async (t) => {
  t.is(await source.midRate('USD', 'THB'), REFERENCE_RATES.rates.THB);
  t.is(await source.midRate('USD', 'JPY'), '144.05');
  t.is(await source.midRate('USD', 'USD'), '1');
  t.is(await source.midRate('THB', 'THB'), '1');
});

test('cross rates go through USD, rounded half-even to 20 significant digits, never in exponent notation', async (t) => {
  const table = new BundledFxRateSource({ base: 'USD', asOf: '2026-09-01', rates: { THB: '35.12', JPY: '150', KWD: '0.3', VND: '25000', IDR: '16000' } });
  t.is(await table.midRate('THB', 'USD'), '0.028473804100227790433'); // 1 / 35.12
  t.is(await table.midRate('THB', 'JPY'), '4.2710706150341685649'); // 150 / 35.12
  t.is(await table.midRate('JPY', 'KWD'), '0.002');
  t.is(await table.midRate('KWD', 'JPY'), '500');
  t.is(await table.midRate('VND', 'KWD'), '0.000012');
  t.is(await table.midRate('KWD', 'VND'), '83333.333333333333333');
  t.is(await table.midRate('USD', 'VND'), '25000');
  for (const [from, to] of [
    ['THB', 'USD'],
    ['IDR', 'KWD'],
    ['VND', 'THB'],
    ['KWD', 'IDR'],
  ] as const) {
    const rate = await table.midRate(from, to);
    t.regex(rate, /^[0-9]+(\.[0-9]+)?$/);
    t.true(rate.replace('.', '').replace(/^0+/, '').length <= CROSS_RATE_SIGNIFICANT_DIGITS);
  }
});

test('a currency the table lacks is unsupported_currency_pair naming from or to', async (t) => {
  const from = await t.throwsAsync(source.midRate('ZAR', 'THB'), { instanceOf: CoreError });
  t.like(from, { code: 'unsupported_currency_pair', category: 'validation', param: 'from' });
  const to = await t.throwsAsync(source.midRate('THB', 'ZAR'), { instanceOf: CoreError });
  t.like(to, { code: 'unsupported_currency_pair', category: 'validation', param: 'to' });
  t.like(await t.throwsAsync(source.midRate('toString', 'THB')), { param: 'from' });
  t.like(await t.throwsAsync(source.midRate('ZAR', 'ZAR')), { param: 'from' });
});

test('a table with a float or a bad key is refused at construction', (t) => {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a table read from untyped JSON may hold a float
  t.throws(() => new BundledFxRateSource({ base: 'USD', asOf: 'x', rates: { THB: 35.12 as unknown as string } }), { instanceOf: CoreError });
  t.throws(() => new BundledFxRateSource({ base: 'USD', asOf: 'x', rates: { THB: '3.5e1' } }), { instanceOf: CoreError });
  t.throws(() => new BundledFxRateSource({ base: 'USD', asOf: 'x', rates: { thb: '35' } }), { instanceOf: CoreError });
  t.throws(() => new BundledFxRateSource({ base: 'USD', asOf: 'x', rates: { USD: '2' } }), { instanceOf: CoreError });
});
