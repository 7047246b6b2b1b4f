import { randomBytes } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { signIn, type SignedInUser } from './helpers/dashboard';
import { assertProperAnswer } from './helpers/error-envelope';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

let t0: TestApp;
let shop: TestMerchant;
let owner: SignedInUser;
let member: SignedInUser;
withAppAndMerchant({}, async (started) => {
  ({ t0, shop } = started);
  owner = await signIn(t0, { merchantId: shop.id, role: 'owner' });
  member = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
});

/** A value no message could contain by chance: if it shows up in an answer, the answer echoed it. */
const marked = fc.string({ minLength: 4, maxLength: 40, unit: 'grapheme-ascii' }).map((rest) => `Sx${randomBytes(4).toString('hex')}${rest}`);

const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
  fc.constantFrom('', ' ', 'x'.repeat(2000), '\u0000', 'owner', 'admin', 'viewer', 'disabled', 'active', '123456', 'a@b.co'),
);
/** Fields whose values are secrets: the answer must never carry them back. */
const SECRET_FIELDS = ['password', 'code', 'secret'];
const secretish = fc.oneof(marked, anyValue);

function bodyArb(fields: string[]) {
  return fc.dictionary(fc.oneof(fc.constantFrom(...fields, ...SECRET_FIELDS), fc.string({ maxLength: 10 })), fc.oneof(anyValue, secretish, fc.emailAddress()), {
    maxKeys: 6,
  });
}

function assertProper(res: { statusCode: number; payload: string; result: unknown }, body: Record<string, unknown>): void {
  assertProperAnswer(res.statusCode, res.result, res.payload);
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string' || !value.startsWith('Sx')) continue;
    const escaped = JSON.stringify(value).slice(1, -1);
    if (SECRET_FIELDS.includes(key) && (res.payload.includes(value) || res.payload.includes(escaped))) {
      throw new Error(`the answer echoes ${key}: ${res.statusCode} ${res.payload}`);
    }
  }
}

let ip = 0;
const nextIp = (): string => `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${(ip += 1) & 255}`;

test('no sign-in or MFA claim body makes a 5xx, refusals are the envelope, and no secret is echoed', async (t) => {
  await fc.assert(
    fc.asyncProperty(bodyArb(['email']), fc.constantFrom('/dashboard/v1/session', '/dashboard/v1/mfa'), fc.boolean(), async (body, url, known) => {
      // Half the time the email is a real user's, so the password and code checks run too.
      const payload = known && 'email' in body ? { ...body, email: member.email } : body;
      const res = await t0.request({ method: 'POST', url, payload, remoteAddress: nextIp() });
      assertProper(res, payload);
      if (res.statusCode === 200) throw new Error(`a fuzzed body signed in: ${JSON.stringify(payload)}`);
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
  );
  t.pass();
});

test('no team body makes a 5xx, refusals are the envelope, and no password is echoed', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      bodyArb(['email', 'role', 'name', 'status']),
      fc.constantFrom(
        'POST /dashboard/v1/users',
        'PATCH /dashboard/v1/users/{member}',
        'PATCH /dashboard/v1/users/{owner}',
        'POST /dashboard/v1/users/{member}/mfa',
        'PATCH /dashboard/v1/users/{bad}',
      ),
      async (body, route) => {
        const [method, template] = route.split(' ');
        // Never disable or reset the member the other property signs in with: it would only make refusals of it.
        const target = template.replace('{member}', 'usr_00000000000000000000').replace('{owner}', owner.userId).replace('{bad}', 'usr_$$');
        const res = await t0.request({ method, url: target, payload: body, headers: { cookie: owner.cookie } });
        assertProper(res, body);
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
  );
  t.pass();
});
