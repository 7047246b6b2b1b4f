import test from 'ava';
import { newId, randomString } from '../../src/common/ids';
import { assertAmount, decimalAmount, isKnownCurrency, minorUnits } from '../../src/common/money';
import { validateMetadata } from '../../src/common/metadata';
import type { RandomSource } from '../../src/common/random-source.port';

/** A deterministic byte stream, so the test can check uniformity without flakiness. */
class CountingRandom implements RandomSource {
  private next = 0;
  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.next++ % 256);
  }
}

test('ids follow the documented patterns', (t) => {
  const random = new CountingRandom();
  t.regex(newId(random, 'payment_intent'), /^pi_[0-9A-Za-z]{24}$/);
  t.regex(newId(random, 'event'), /^evt_[A-Z2-7]{26}$/);
  t.regex(newId(random, 'payment_attempt'), /^pa_[A-Z2-7]{26}$/);
  t.regex(newId(random, 'settlement'), /^st_[A-Z2-7]{26}$/);
});

test('random strings use every character of the alphabet equally (rejection sampling)', (t) => {
  const random = new CountingRandom();
  const counts = new Map<string, number>();
  for (const char of randomString(random, 'abc', 3 * 8500)) counts.set(char, (counts.get(char) ?? 0) + 1);
  const values = [...counts.values()];
  t.is(values.length, 3);
  t.true(Math.max(...values) - Math.min(...values) <= 1);
});

test('amounts are exact integers of minor units within 2^53', (t) => {
  t.notThrows(() => assertAmount(1, 'amount'));
  t.notThrows(() => assertAmount(Number.MAX_SAFE_INTEGER, 'amount'));
  for (const bad of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => assertAmount(bad, 'amount'), { message: /amount/ });
  }
  t.notThrows(() => assertAmount(0, 'amount', 0));
});

test('currencies are checked against ISO 4217 with their minor units', (t) => {
  t.true(isKnownCurrency('THB'));
  t.false(isKnownCurrency('XYZ'));
  t.false(isKnownCurrency('thb'));
  t.is(minorUnits('THB'), 2);
  t.is(minorUnits('JPY'), 0);
  t.is(minorUnits('KWD'), 3);
});

test('decimal amounts are exact strings in the currency’s digits, negative ones with a minus sign', (t) => {
  t.is(decimalAmount(12345, 'THB'), '123.45');
  t.is(decimalAmount(5, 'THB'), '0.05');
  t.is(decimalAmount(0, 'THB'), '0.00');
  t.is(decimalAmount(-150, 'THB'), '-1.50');
  t.is(decimalAmount(-5, 'THB'), '-0.05');
  t.is(decimalAmount(500, 'JPY'), '500');
  t.is(decimalAmount(-500, 'JPY'), '-500');
  t.is(decimalAmount(5, 'KWD'), '0.005');
  t.is(decimalAmount(1234567, 'KWD'), '1234.567');
  t.is(decimalAmount(Number.MAX_SAFE_INTEGER, 'THB'), '90071992547409.91');
  t.is(decimalAmount(2n ** 64n, 'USD'), '184467440737095516.16', 'a BigInt sum past 2^53 − 1, exact');
  t.is(decimalAmount(-(2n ** 64n), 'JPY'), '-18446744073709551616');
  for (const bad of [1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) t.throws(() => decimalAmount(bad, 'THB'), { message: /exact integer/ });
  t.throws(() => decimalAmount(1, 'XYZ'), { message: /Unknown currency/ });
});

test('metadata is a small map of strings', (t) => {
  t.deepEqual(validateMetadata({ a: 'b' }), { a: 'b' });
  t.throws(() => validateMetadata({ a: 1 }), { message: /strings/ });
  t.throws(() => validateMetadata({ ['k'.repeat(41)]: 'v' }));
  t.throws(() => validateMetadata({ a: 'v'.repeat(501) }));
  t.throws(() => validateMetadata(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))));
});
