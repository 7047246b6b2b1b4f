import test from 'ava';
import { isRecord } from '../../src/common/guards';
import { withoutUndefined } from '../../src/common/without-undefined';

test('undefined fields are left out; null, 0, false and empty text stay', (t) => {
  t.deepEqual(withoutUndefined({ a: undefined, b: null, c: 0, d: false, e: '', f: 'x' }), { b: null, c: 0, d: false, e: '', f: 'x' });
  t.false('a' in withoutUndefined({ a: undefined }));
});

test('a field named __proto__ stays an own field and never becomes the prototype', (t) => {
  const parsed: unknown = JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}');
  if (!isRecord(parsed)) return t.fail('the text is a JSON object');
  const result = withoutUndefined(parsed);
  t.deepEqual(Object.keys(result), ['__proto__', 'kept']);
  t.is(Object.getPrototypeOf(result), Object.prototype);
  t.is((result as { polluted?: boolean }).polluted, undefined);
  t.is(JSON.stringify(result), '{"__proto__":{"polluted":true},"kept":1}');
});
