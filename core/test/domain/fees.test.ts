import test from 'ava';
import { PAYMENT_METHODS } from '../../src/catalog/domain/catalog';
import { computeFee, DEFAULT_FEE_SCHEDULE, netOf, parseFeeSchedule, settlementBreakdown, type FeeSchedule } from '../../src/fx/domain/fees';
import { CoreError } from '../../src/common/core-error';

const MAX = Number.MAX_SAFE_INTEGER;

const SCHEDULE: FeeSchedule = {
  promptpay: { percent: '1.65', fixed: {} },
  paynow: { percent: '2.5', fixed: { SGD: 50, THB: 1000 } },
  qris: { percent: '0', fixed: { IDR: 2000 } },
  gcash: { percent: '100', fixed: {} },
  alipay_plus: { percent: '0.005', fixed: { JPY: 3 } },
};

test('every catalog method has a default fee, a percent from 0 to 100', (t) => {
  for (const { method } of PAYMENT_METHODS) {
    const rule = DEFAULT_FEE_SCHEDULE[method];
    t.truthy(rule, method);
    t.regex(rule?.percent ?? '', /^[0-9]+(\.[0-9]+)?$/);
  }
  t.deepEqual(parseFeeSchedule({}), DEFAULT_FEE_SCHEDULE);
});

test('computeFee: percent rounded half-even to minor units, plus the fixed part of the currency', (t) => {
  const cases: Array<[amount: number, currency: string, method: string, expected: number]> = [
    [100_000, 'THB', 'promptpay', 1650],
    [10_000, 'THB', 'promptpay', 165],
    [100, 'THB', 'promptpay', 2], // 1.65 → 2
    [1, 'THB', 'promptpay', 0], // 0.0165 → 0
    [0, 'THB', 'promptpay', 0],
    [20, 'USD', 'paynow', 0], // 2.5 % = 0.5 → 0 (even)
    [60, 'USD', 'paynow', 2], // 1.5 → 2
    [100, 'USD', 'paynow', 2], // 2.5 → 2
    [140, 'USD', 'paynow', 4], // 3.5 → 4
    [10_020, 'SGD', 'paynow', 300], // 250.5 → 250, + 50
    [10_060, 'SGD', 'paynow', 302], // 251.5 → 252, + 50
    [10_000, 'THB', 'paynow', 1250], // fixed of the currency
    [10_000, 'USD', 'paynow', 250], // no fixed for USD: 0
    [10_000_000, 'IDR', 'qris', 2000],
    [10_000, 'JPY', 'alipay_plus', 3], // 0.5 → 0, + 3
    [30_000, 'JPY', 'alipay_plus', 5], // 1.5 → 2, + 3
    [50_000, 'JPY', 'alipay_plus', 5], // 2.5 → 2, + 3
  ];
  for (const [amount, currency, method, expected] of cases) {
    t.deepEqual(computeFee(amount, currency, method, SCHEDULE), { amount: expected, currency }, `${amount} ${currency} ${method}`);
  }
});

test('computeFee never takes more than the amount', (t) => {
  t.is(computeFee(1000, 'IDR', 'qris', SCHEDULE).amount, 1000); // fixed 2000 capped
  t.is(computeFee(0, 'IDR', 'qris', SCHEDULE).amount, 0);
  t.is(computeFee(12_345, 'PHP', 'gcash', SCHEDULE).amount, 12_345); // 100 %
  t.is(computeFee(MAX, 'PHP', 'gcash', SCHEDULE).amount, MAX);
});

test('computeFee stays exact at 2^53 scale', (t) => {
  // 9007199254740991 × 1.65 % = 148618787703226.3515 → ...226
  t.is(computeFee(MAX, 'THB', 'promptpay', SCHEDULE).amount, 148618787703226);
  // 9007199254740990 × 2.5 % = 225179981368524.75 → ...525, + 50
  t.is(computeFee(MAX - 1, 'SGD', 'paynow', SCHEDULE).amount, 225179981368575);
  // 9007199254740990 × 0.005 % = 450359962737.0495 → ...737, + 3
  t.is(computeFee(MAX - 1, 'JPY', 'alipay_plus', SCHEDULE).amount, 450359962740);
});

test('computeFee refuses a method without a rule and a bad amount', (t) => {
  t.is(t.throws<CoreError>(() => computeFee(100, 'THB', 'truemoney', SCHEDULE)).param, 'payment_method');
  t.is(t.throws<CoreError>(() => computeFee(100, 'THB', 'toString', SCHEDULE)).param, 'payment_method');
  for (const amount of [-1, 1.5, MAX + 1]) t.is(t.throws<CoreError>(() => computeFee(amount, 'THB', 'promptpay', SCHEDULE)).param, 'amount');
});

test('netOf subtracts a fee of the same currency only', (t) => {
  t.deepEqual(netOf({ amount: 100_000, currency: 'THB' }, { amount: 1650, currency: 'THB' }), { amount: 98_350, currency: 'THB' });
  t.throws(() => netOf({ amount: 100, currency: 'THB' }, { amount: 1, currency: 'USD' }), { instanceOf: CoreError });
});

test('settlementBreakdown converts at the locked rate first, then takes the fee in the settlement currency', (t) => {
  // 100 000 satang at 0.0283575 USD/THB = 2835.75 cents → 2836; fee 1.65 % = 46.794 → 47
  t.deepEqual(
    settlementBreakdown({ amount: 100_000, currency: 'THB', settlementCurrency: 'USD', method: 'promptpay', rate: '0.0283575', schedule: SCHEDULE }),
    {
      gross: { amount: 2836, currency: 'USD' },
      fee: { amount: 47, currency: 'USD' },
      net: { amount: 2789, currency: 'USD' },
    },
  );
  // Same currency: no rate needed, fixed part of that currency applies.
  t.deepEqual(settlementBreakdown({ amount: 10_000, currency: 'SGD', settlementCurrency: 'SGD', method: 'paynow', schedule: SCHEDULE }), {
    gross: { amount: 10_000, currency: 'SGD' },
    fee: { amount: 300, currency: 'SGD' },
    net: { amount: 9700, currency: 'SGD' },
  });
  // Default schedule when none is given.
  t.is(settlementBreakdown({ amount: 100_000, currency: 'THB', settlementCurrency: 'THB', method: 'promptpay' }).fee.amount, 1650);
  t.throws(() => settlementBreakdown({ amount: 100, currency: 'THB', settlementCurrency: 'USD', method: 'promptpay' }), { instanceOf: CoreError });
});

test('parseFeeSchedule lays an override over the defaults, a rule replaced whole', (t) => {
  const schedule = parseFeeSchedule({ promptpay: { percent: '1.5', fixed: { THB: 500 } }, gcash: { percent: '0' } });
  t.deepEqual(schedule.promptpay, { percent: '1.5', fixed: { THB: 500 } });
  t.deepEqual(schedule.gcash, { percent: '0', fixed: {} });
  t.deepEqual(schedule.paynow, DEFAULT_FEE_SCHEDULE.paynow);
  t.true(Object.isFrozen(schedule));
});

test('parseFeeSchedule refuses what it cannot price', (t) => {
  const bad: unknown[] = [
    null,
    [],
    'x',
    { unknown_method: { percent: '1' } },
    { promptpay: null },
    { promptpay: {} },
    { promptpay: { percent: 1.65 } },
    { promptpay: { percent: '1e1' } },
    { promptpay: { percent: '-1' } },
    { promptpay: { percent: '100.01' } },
    { promptpay: { percent: '1.1234567' } },
    { promptpay: { percent: '1', fixed: { thb: 5 } } },
    { promptpay: { percent: '1', fixed: { XYZ: 5 } } },
    { promptpay: { percent: '1', fixed: { THB: -1 } } },
    { promptpay: { percent: '1', fixed: { THB: 1.5 } } },
    { promptpay: { percent: '1', fixed: { THB: '5' } } },
    { promptpay: { percent: '1', fixed: [] } },
    { promptpay: { percent: '1', extra: true } },
    JSON.parse('{"__proto__": {"percent": "1"}}'),
  ];
  for (const override of bad) {
    t.is(t.throws<CoreError>(() => parseFeeSchedule(override)).code, 'invalid_fee_schedule', JSON.stringify(override));
  }
  t.notThrows(() => parseFeeSchedule({ promptpay: { percent: '100', fixed: { THB: 0 } } }));
});
