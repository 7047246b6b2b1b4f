import test from 'ava';
import { CryptoRandomSource } from '../src/crypto-random-source';

test('bytes come in the length asked for, small and large, and never repeat', (t) => {
  const random = new CryptoRandomSource();
  const seen = new Set<string>();
  // Far more than one 4 KiB pool's worth, so refills are crossed many times.
  for (let i = 0; i < 2000; i += 1) {
    const length = (i % 40) + 16;
    const bytes = random.bytes(length);
    t.is(bytes.length, length);
    seen.add(Buffer.from(bytes).toString('hex'));
  }
  t.is(seen.size, 2000);
  t.is(random.bytes(1000).length, 1000);
  t.is(random.bytes(0).length, 0);
});

test("a caller changing its bytes changes nobody else's", (t) => {
  const random = new CryptoRandomSource();
  const first = random.bytes(32);
  const copy = Buffer.from(first).toString('hex');
  random.bytes(32).fill(0);
  t.is(Buffer.from(first).toString('hex'), copy);
});
