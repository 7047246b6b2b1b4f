import test from 'ava';
import { CoreError } from '../../src/common/core-error';
import { applySpread, compareDecimal, convertAmount, isRateString, RATE_SIGNIFICANT_DIGITS } from '../../src/fx/domain/fx';

const MAX = Number.MAX_SAFE_INTEGER; // 9007199254740991

test("applySpread takes the spread off the mid rate, in the platform's favour", (t) => {
  const cases: Array<[mid: string, bps: number, expected: string]> = [
    ['35.12', 50, '34.9444'],
    ['35.12', 0, '35.12'],
    ['1', 50, '0.995'],
    ['1', 1, '0.9999'],
    ['0.0285', 50, '0.0283575'],
    ['16235', 100, '16072.65'],
    ['144.05', 50, '143.32975'],
    ['0.3056', 25, '0.304836'],
    ['2', 9999, '0.0002'],
  ];
  for (const [mid, bps, expected] of cases) {
    const rate = applySpread(mid, bps);
    t.is(rate, expected, `${mid} less ${bps} bps`);
    t.true(compareDecimal(rate, mid) <= 0, 'never above the mid rate');
  }
});

test('applySpread keeps 12 significant digits, cut towards the platform, never in exponent notation', (t) => {
  // 1/35.12 to 20 digits, less 50 bps = 0.028331435079726651... → cut, not rounded up.
  t.is(applySpread('0.028473804100227790433', 50), '0.0283314350797');
  t.is(applySpread('123456789.123456789', 0), '123456789.123');
  t.is(applySpread('0.00000001234567891234', 0), '0.0000000123456789123');
  t.is(applySpread('123456789012345678901234', 0), '123456789012000000000000');
  for (const rate of [applySpread('0.00000001234567891234', 50), applySpread('123456789012345678901234', 50)]) {
    t.regex(rate, /^[0-9]+(\.[0-9]+)?$/);
    t.true(rate.replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length <= RATE_SIGNIFICANT_DIGITS);
  }
});

test('applySpread refuses a bad rate or spread as our own bug', (t) => {
  for (const mid of ['', '0', '0.000', '-1', '1e3', '35.12 ', '.5', '5.', 'NaN', '01.5', '1'.repeat(41)]) {
    t.throws(() => applySpread(mid, 50), { instanceOf: CoreError, message: /rate/ }, mid);
  }
  for (const bps of [-1, 10_000, 1.5, Number.NaN]) t.throws(() => applySpread('1', bps), { instanceOf: CoreError });
});

test('isRateString accepts positive plain decimals only', (t) => {
  for (const good of ['1', '35.12', '0.0001', '16235', '0.30560']) t.true(isRateString(good), good);
  for (const bad of [35.12, '0', '-2', '1e5', '1,5', ' 1', '0x10', 'Infinity', '', null, undefined]) t.false(isRateString(bad), String(bad));
});

test("convertAmount scales by each currency's ISO 4217 exponent and rounds half-even", (t) => {
  const cases: Array<[amount: number, from: string, to: string, rate: string, expected: number]> = [
    // THB (2) → USD (2)
    [100_000, 'THB', 'USD', '0.0285', 2850],
    [1, 'THB', 'USD', '0.5', 0], // 0.5 → 0 (even)
    [3, 'THB', 'USD', '0.5', 2], // 1.5 → 2
    [5, 'THB', 'USD', '0.5', 2], // 2.5 → 2
    [7, 'THB', 'USD', '0.5', 4], // 3.5 → 4
    [1, 'THB', 'USD', '0.51', 1], // 0.51 → 1
    [1, 'THB', 'USD', '0.49', 0],
    // USD (2) → JPY (0): cents to yen
    [100, 'USD', 'JPY', '144.05', 144],
    [150, 'USD', 'JPY', '1', 2], // 1.5 yen → 2
    [250, 'USD', 'JPY', '1', 2], // 2.5 yen → 2
    [350, 'USD', 'JPY', '1', 4], // 3.5 yen → 4
    [1, 'USD', 'JPY', '150', 2], // 1.5 yen → 2
    // JPY (0) → THB (2)
    [1000, 'JPY', 'THB', '0.2259', 22590],
    [1, 'JPY', 'THB', '0.22585', 23], // 22.585 satang → 23
    [1, 'JPY', 'THB', '0.225', 22], // 22.5 → 22
    [1, 'JPY', 'THB', '0.235', 24], // 23.5 → 24
    // USD (2) → KWD (3): cents to fils
    [100, 'USD', 'KWD', '0.3056', 306], // 305.6
    [1, 'USD', 'KWD', '0.3005', 3], // 3.005 → 3
    [100, 'USD', 'KWD', '0.3005', 300], // 300.5 → 300 (even)
    [300, 'USD', 'KWD', '0.3005', 902], // 901.5 → 902
    // KWD (3) → USD (2)
    [1005, 'KWD', 'USD', '1', 100], // 100.5 → 100
    [1015, 'KWD', 'USD', '1', 102], // 101.5 → 102
    // JPY (0) → KWD (3)
    [1, 'JPY', 'KWD', '0.0021225', 2], // 2.1225
    [2, 'JPY', 'KWD', '0.00225', 4], // 4.5 → 4
    [2, 'JPY', 'KWD', '0.00275', 6], // 5.5 → 6
    // zero and negatives
    [0, 'THB', 'USD', '0.0285', 0],
    [-5, 'THB', 'USD', '0.5', -2],
    [-7, 'THB', 'USD', '0.5', -4],
    [-1, 'THB', 'USD', '0.5', 0],
  ];
  for (const [amount, from, to, rate, expected] of cases) {
    t.is(convertAmount(amount, from, to, rate), expected, `${amount} ${from} → ${to} at ${rate}`);
  }
  t.false(Object.is(convertAmount(-1, 'THB', 'USD', '0.5'), -0), 'no negative zero');
});

test('convertAmount stays exact at 2^53 scale, where float arithmetic drifts', (t) => {
  const cases: Array<[amount: number, rate: string, exact: number, float: number]> = [
    // amount × rate exactly (Python's decimal agrees), and what Math.round(amount * rate) answers
    [MAX - 1, '0.35', 3152519739159346, 3152519739159347], // ...346.5 → even
    [MAX - 1, '0.55', 4953959590107544, 4953959590107545], // ...544.5 → even
    [MAX - 1, '0.8127', 7320150834328003, 7320150834328002], // ...002.573
    [8000000000000001, '0.7', 5600000000000001, 5600000000000000], // ...000.7
    [4503599627370497, '0.9', 4053239664633447, 4053239664633448], // ...447.3
    [4503599627370497, '0.55', 2476979795053773, 2476979795053774], // ...773.35
  ];
  for (const [amount, rate, exact, float] of cases) {
    t.is(convertAmount(amount, 'USD', 'EUR', rate), exact, `${amount} × ${rate}`);
    t.is(Math.round(amount * Number(rate)), float, 'the float answer differs');
  }
  t.is(convertAmount(MAX, 'THB', 'THB', '1'), MAX);
  t.is(convertAmount(MAX, 'USD', 'EUR', '0.5'), 4503599627370496); // ...495.5 → even
  t.is(convertAmount(MAX - 2, 'USD', 'EUR', '0.5'), 4503599627370494); // ...494.5 → even
  t.is(convertAmount(90071992547409, 'JPY', 'THB', '1'), 9007199254740900); // × 100 for the exponents
  t.is(convertAmount(MAX, 'KWD', 'JPY', '1'), 9007199254741); // 9007199254740.991 → ...741
  t.is(convertAmount(4503599627370497, 'USD', 'EUR', '1.999999999999999'), 9007199254740989); // ...989.4964
});

test('convertAmount refuses a result beyond 2^53 − 1 or a non-integer amount, naming amount', (t) => {
  t.throws(() => convertAmount(MAX, 'USD', 'IDR', '16235'), { instanceOf: CoreError, code: 'invalid_parameter' });
  t.is(t.throws<CoreError>(() => convertAmount(MAX, 'USD', 'KWD', '2')).param, 'amount');
  for (const amount of [1.5, MAX + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.is(t.throws<CoreError>(() => convertAmount(amount, 'USD', 'THB', '35')).param, 'amount');
  }
  t.throws(() => convertAmount(100, 'USD', 'THB', '35.1e2'), { instanceOf: CoreError });
  t.is(t.throws<CoreError>(() => convertAmount(100, 'USD', 'XYZ', '1')).code, 'invalid_currency');
});

test('compareDecimal orders decimal strings without floats', (t) => {
  t.is(compareDecimal('0.30000000000000000001', '0.3'), 1);
  t.is(compareDecimal('35.12', '35.120'), 0);
  t.is(compareDecimal('9007199254740993', '9007199254740992'), 1);
  t.throws(() => compareDecimal('1e3', '1'));
});
