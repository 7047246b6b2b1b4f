import test from 'ava';
import { exactJson } from '../src/http/exact-json';

test('an answer without BigInt is the JSON.stringify text of it', (t) => {
  const answer = { id: 'pi_1', amount: 9_007_199_254_740_991, metadata: { note: 'exact-integer-x:1' }, list: [1, 'a', null, true] };
  t.is(exactJson(answer), JSON.stringify(answer));
});

test('a BigInt past 2^53 − 1 is written as its exact digits, negative ones too, wherever it sits', (t) => {
  const text = exactJson({ available: [{ amount: 18_014_398_509_481_983n }], pending: -9_007_199_254_740_993n, label: '"quoted"' });
  t.is(text, '{"available":[{"amount":18014398509481983}],"pending":-9007199254740993,"label":"\\"quoted\\""}');
});

test('a circular value is still refused with a TypeError', (t) => {
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;
  t.throws(() => exactJson(circular), { instanceOf: TypeError });
});
