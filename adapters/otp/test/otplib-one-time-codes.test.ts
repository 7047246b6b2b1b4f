import test from 'ava';
import { generateSync } from 'otplib';
import { OtplibOneTimeCodes } from '../src/otplib-one-time-codes';

const codes = new OtplibOneTimeCodes();
const at = (seconds: number): Date => new Date(seconds * 1000);
const codeAt = (secret: string, seconds: number): string => generateSync({ secret, epoch: seconds });

test('a code verifies in its step and one step either side, not two', (t) => {
  const secret = codes.generateSecret();
  const t0 = 1_800_000_000;
  const code = codeAt(secret, t0);
  const step = Math.floor(t0 / 30);
  t.is(codes.matchingStep(secret, code, at(t0)), step);
  t.is(codes.matchingStep(secret, code, at(t0 + 30)), step);
  t.is(codes.matchingStep(secret, code, at(t0 - 30)), step);
  t.is(codes.matchingStep(secret, code, at(t0 + 61)), undefined);
});

test('a wrong, short or non-numeric code never verifies', (t) => {
  const secret = codes.generateSecret();
  const now = 1_800_000_000;
  const right = codeAt(secret, now);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  for (const code of [wrong, right.slice(1), 'abcdef', '', `${right}0`]) t.is(codes.matchingStep(secret, code, at(now)), undefined, code);
});

test('the key URI is what authenticator apps scan', (t) => {
  const secret = codes.generateSecret();
  t.regex(secret, /^[A-Z2-7]{16,}$/);
  const uri = codes.keyUri('owner@example.com', 'Payments', secret);
  t.true(uri.startsWith('otpauth://totp/'));
  t.true(uri.includes(`secret=${secret}`));
});
