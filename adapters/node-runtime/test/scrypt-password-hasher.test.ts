import test from 'ava';
import { CryptoDigest } from '../src/crypto-digest';
import { OWASP_SCRYPT, ScryptPasswordHasher } from '../src/scrypt-password-hasher';

const cheap = new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

test('a hash verifies its own password and no other', async (t) => {
  const stored = await cheap.hash('correct horse battery staple');
  t.true(await cheap.verify('correct horse battery staple', stored));
  t.false(await cheap.verify('correct horse battery stapl', stored));
  t.false(stored.includes('correct horse'));
});

test('the stored form names its parameters and a fresh salt', async (t) => {
  const a = await cheap.hash('same password');
  const b = await cheap.hash('same password');
  t.regex(a, /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  t.not(a, b);
});

test('a hash made with other parameters still verifies, so parameters can be raised', async (t) => {
  const old = await new ScryptPasswordHasher({ N: 512, r: 8, p: 1 }).hash('pw long enough');
  t.true(await cheap.verify('pw long enough', old));
});

test('the default parameters meet the OWASP minimum for scrypt', (t) => {
  t.true(OWASP_SCRYPT.N >= 2 ** 17);
  t.is(OWASP_SCRYPT.r, 8);
  t.is(OWASP_SCRYPT.p, 1);
});

test('a malformed stored hash never verifies', async (t) => {
  t.false(await cheap.verify('x', 'plain-text'));
  t.false(await cheap.verify('x', 'bcrypt$1$2$3$4$5'));
});

test('digests compare equal only when equal', (t) => {
  const digest = new CryptoDigest();
  // The FIPS 180-2 test vector for "abc".
  t.is(digest.sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const a = digest.sha256Hex('sk_test_abc');
  t.true(digest.equal(a, digest.sha256Hex('sk_test_abc')));
  t.false(digest.equal(a, digest.sha256Hex('sk_test_abd')));
  t.false(digest.equal(a, 'short'));
});
