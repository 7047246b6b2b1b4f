import { randomBytes } from 'node:crypto';
import test from 'ava';
import { AesGcmSecretBox } from '../src/aes-gcm-secret-box';

const box = new AesGcmSecretBox(randomBytes(32));

test('a sealed secret opens to itself and never shows it', (t) => {
  const sealed = box.seal('JBSWY3DPEHPK3PXP');
  t.false(sealed.includes('JBSWY3DPEHPK3PXP'));
  t.is(box.open(sealed), 'JBSWY3DPEHPK3PXP');
  t.not(box.seal('JBSWY3DPEHPK3PXP'), sealed, 'a fresh nonce each time');
});

test('an altered seal, or one under another key, does not open', (t) => {
  const sealed = box.seal('secret');
  const parts = sealed.split('.');
  const flipped = Buffer.from(parts[3], 'base64url');
  flipped[0] = (flipped[0] ?? 0) ^ 1;
  t.throws(() => box.open([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.')));
  t.throws(() => new AesGcmSecretBox(randomBytes(32)).open(sealed));
  t.throws(() => box.open('plain text'));
});
