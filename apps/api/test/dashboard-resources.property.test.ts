import test from 'ava';
import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { FakeClock } from '@payments/in-memory';
import { asUser, signIn, totpCode, type SignedInUser } from './helpers/dashboard';
import { assertProperAnswer } from './helpers/error-envelope';
import { textAt } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({ clock }, (started) => ({ t0, shop } = started));

/** Stands for "a valid one-time code of the user, fresh": replaced before the request is sent. */
const VALID_CODE = '<valid code>';

const publicKey = (): string => {
  const { publicKey: key } = generateKeyPairSync('ed25519');
  return Buffer.from(textAt(key.export({ format: 'jwk' }), 'x'), 'base64url').toString('base64');
};

/** Secret-looking values: account numbers and codes. No error may ever repeat one. */
const secretish = fc.oneof(fc.stringMatching(/^[0-9]{6,16}$/), fc.stringMatching(/^[0-9]{3}-[0-9]{3}-[0-9]{4}$/), fc.stringMatching(/^TH[0-9]{8,20}$/));

/** Any JSON a client could send, weighted towards the shapes and values the routes know. */
const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: secretish },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'test',
      'live',
      'simulated',
      'bank_account',
      'THB',
      'USD',
      'daily',
      'manual',
      'enabled',
      'disabled',
      '2026-09-01',
      '2020-01-01',
      'Siam Coffee Co.',
      'SIAM COFFEE',
      'help@siam.example',
      '004',
      'https://hooks.example.com/in',
      'http://hooks.example.com/in',
      'https://127.0.0.1/',
      'https://localhost/',
      '',
      ' ',
      '\u0000',
      'x'.repeat(5000),
      VALID_CODE,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(['payment_intent.succeeded'], ['dispute.opened', 'settlement.paid'], ['payment_intent.created'], []) },
);

/** The values of `body` no answer may repeat: secret-looking strings, wherever they were sent. */
function secretsIn(body: unknown): string[] {
  if (typeof body === 'string') return /[0-9]{6,}/.test(body.replace(/[\s-]/g, '')) ? [body, body.replace(/[\s-]/g, '')] : [];
  if (Array.isArray(body)) return body.flatMap(secretsIn);
  if (body !== null && typeof body === 'object') return Object.values(body).flatMap(secretsIn);
  return [];
}

/**
 * Account numbers sent: no answer, success or refusal, may carry one in full. Only a value with
 * six digits is one (as secretsIn reads them): a generated "simulated" is the route's own word.
 */
function accountNumbersIn(body: unknown): string[] {
  const value = body !== null && typeof body === 'object' ? (body as { account_number?: unknown }).account_number : undefined;
  return typeof value === 'string' ? secretsIn(value) : [];
}

function check(status: number, payload: string, body: unknown, sent: unknown, route: string): void {
  assertProperAnswer(status, body, payload, route);
  // A refusal never repeats a secret-looking value (account number, code, key), wherever it was sent.
  // Timestamps are the service's own: an account number that looks like a date may match one.
  const forbidden = status >= 400 ? secretsIn(sent) : accountNumbersIn(sent);
  const searched = payload.replace(/"(created|hold_until)":"[^"]*"/g, '');
  for (const secret of forbidden) {
    if (searched.includes(secret)) throw new Error(`${route}: ${status} repeats a sent value (${secret}): ${payload}`);
  }
}

/** Stands for "a fresh Ed25519 public key": replaced before the request is sent. */
const FRESH_KEY = '<fresh key>';

interface RouteUnderTest {
  readonly name: string;
  readonly method: 'POST' | 'PATCH';
  readonly url: (fixtures: Fixtures) => string;
  readonly fields: readonly string[];
  /** A body the route accepts; the generator also mutates it, field by field. */
  readonly valid: Record<string, unknown>;
  readonly role: 'owner' | 'developer';
}

interface Fixtures {
  readonly apiKeyId: string;
  readonly payoutId: string;
  readonly endpointId: string;
}

const bank = { currency: 'THB', account_holder: 'Siam Coffee Co.', bank_code: '004', account_number: '000111222333', code: VALID_CODE };

const ROUTES: readonly RouteUnderTest[] = [
  {
    name: 'PATCH settings',
    method: 'PATCH',
    url: () => '/dashboard/v1/settings',
    fields: ['business_name', 'support_email', 'statement_descriptor', 'settlement_schedule', 'status', 'settlement_currency'],
    valid: { business_name: 'Siam Coffee', settlement_schedule: 'weekly' },
    role: 'owner',
  },
  {
    name: 'POST api_keys',
    method: 'POST',
    url: () => '/dashboard/v1/api_keys',
    fields: ['mode', 'name', 'secret'],
    valid: { mode: 'test', name: 'ci' },
    role: 'developer',
  },
  { name: 'POST api_keys revoke', method: 'POST', url: (f) => `/dashboard/v1/api_keys/${f.apiKeyId}/revoke`, fields: ['reason'], valid: {}, role: 'developer' },
  {
    name: 'POST signing_keys',
    method: 'POST',
    url: () => '/dashboard/v1/signing_keys',
    fields: ['public_key', 'name', 'algorithm'],
    valid: { public_key: FRESH_KEY },
    role: 'developer',
  },
  {
    name: 'POST payout_methods test',
    method: 'POST',
    url: () => '/dashboard/v1/payout_methods?mode=test',
    fields: ['type', 'currency', 'account_holder', 'bank_code', 'account_number', 'code', 'iban'],
    valid: { type: 'simulated', ...bank },
    role: 'owner',
  },
  {
    name: 'POST payout_methods live',
    method: 'POST',
    url: () => '/dashboard/v1/payout_methods?mode=live',
    fields: ['type', 'currency', 'account_holder', 'bank_code', 'account_number', 'code'],
    valid: { type: 'bank_account', ...bank },
    role: 'owner',
  },
  {
    name: 'POST payout default',
    method: 'POST',
    url: (f) => `/dashboard/v1/payout_methods/${f.payoutId}/default?mode=test`,
    fields: ['code', 'account_number'],
    valid: { code: VALID_CODE },
    role: 'owner',
  },
  {
    name: 'POST webhook_endpoints',
    method: 'POST',
    url: () => '/dashboard/v1/webhook_endpoints?mode=test',
    fields: ['url', 'enabled_events', 'description', 'secret', 'api_version'],
    valid: { url: 'https://hooks.example.com/in', enabled_events: ['payment_intent.succeeded'] },
    role: 'developer',
  },
  {
    name: 'PATCH webhook_endpoints',
    method: 'PATCH',
    url: (f) => `/dashboard/v1/webhook_endpoints/${f.endpointId}`,
    fields: ['url', 'enabled_events', 'description', 'api_version', 'status', 'secret'],
    valid: { status: 'disabled', api_version: '2026-09-01' },
    role: 'developer',
  },
];

/**
 * A body of the route's fields (and strangers); the route's valid body with some fields replaced,
 * dropped or added; or now and then no object at all.
 */
function bodyFor(route: RouteUnderTest) {
  const fieldName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...route.fields) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
  const random = fc.dictionary(fieldName, anyValue, { maxKeys: 8 });
  const mutated = fc
    .tuple(
      fc.dictionary(fieldName, anyValue, { maxKeys: 2 }),
      fc.subarray(Object.keys(route.valid), { maxLength: Math.min(1, Object.keys(route.valid).length) }),
    )
    .map(([changes, dropped]) => {
      const body: Record<string, unknown> = { ...route.valid, ...changes };
      for (const field of dropped) delete body[field];
      return body;
    });
  return fc.oneof({ weight: 6, arbitrary: random }, { weight: 6, arbitrary: mutated }, { weight: 1, arbitrary: anyValue });
}

for (const route of ROUTES) {
  test.serial(`${route.name}: no body makes a 5xx, every refusal is the envelope, and no sent secret is echoed`, async (t) => {
    // A user of its own per route: its session is young however far the clock moved before.
    const user: SignedInUser = await signIn(t0, { merchantId: shop.id, role: route.role });
    const owner = route.role === 'owner' ? user : await signIn(t0, { merchantId: shop.id, role: 'owner' });
    const fresh = (): string => {
      clock.advance(30_000);
      return totpCode(t0, owner.totpSecret);
    };
    const apiKey = await asUser(t0, owner, { method: 'POST', url: '/dashboard/v1/api_keys', payload: { mode: 'test' } });
    const payout = await asUser(t0, owner, {
      method: 'POST',
      url: '/dashboard/v1/payout_methods?mode=test',
      payload: { type: 'simulated', currency: 'THB', account_holder: 'A', bank_code: '004', account_number: '000111222333', code: fresh() },
    });
    const endpoint = await asUser(t0, owner, {
      method: 'POST',
      url: '/dashboard/v1/webhook_endpoints?mode=test',
      payload: { url: 'https://hooks.example.com/x' },
    });
    const fixtures: Fixtures = {
      apiKeyId: textAt(apiKey.result, 'id'),
      payoutId: textAt(payout.result, 'id'),
      endpointId: textAt(endpoint.result, 'id'),
    };
    let validCodes = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodyFor(route), async (generated) => {
        // Fresh codes move the clock; cap them so the session (30 minutes) outlives the run.
        const withCode = JSON.parse(JSON.stringify(generated ?? null), (_key, value: unknown) => {
          if (value !== VALID_CODE) return value;
          if (validCodes >= 40) return '000000';
          validCodes += 1;
          return fresh();
        }) as unknown;
        const body = JSON.parse(JSON.stringify(withCode), (_key, value: unknown) => (value === FRESH_KEY ? publicKey() : value)) as unknown;
        const res = await asUser(t0, user, { method: route.method, url: route.url(fixtures), payload: body === null ? undefined : body });
        check(res.statusCode, res.payload, res.result, body, route.name);
        statuses.add(res.statusCode);
      }),
      { numRuns: 200 },
    );
    // The runs reached the work, not only the validation: some bodies were accepted.
    t.true(statuses.has(route.method === 'POST' && !route.name.includes('revoke') && !route.name.includes('default') ? 201 : 200), [...statuses].join(','));
  });
}

const queryValue = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('test', 'live', 'TEST', '', '%00', '%ZZ', 'test&mode=live'));
const queryArb = fc.dictionary(fc.constantFrom('mode', 'limit', 'starting_after', 'x'), queryValue, { maxKeys: 3 });

test.serial('list queries and path ids: no 5xx, every refusal the envelope', async (t) => {
  const user = await signIn(t0, { merchantId: shop.id, role: 'viewer' });
  const writer = await signIn(t0, { merchantId: shop.id, role: 'developer' });
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(
        '/dashboard/v1/payout_methods',
        '/dashboard/v1/webhook_endpoints',
        '/dashboard/v1/api_keys',
        '/dashboard/v1/signing_keys',
        '/dashboard/v1/settings',
      ),
      queryArb,
      async (path, query) => {
        const qs = Object.entries(query)
          .map(([key, value]) => `${encodeURIComponent(key)}=${value.startsWith('%') ? value : encodeURIComponent(value)}`)
          .join('&');
        const res = await asUser(t0, user, { method: 'GET', url: `${path}?${qs}` });
        check(res.statusCode, res.payload, res.result, query, path);
      },
    ),
    { numRuns: 150 },
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('we_', 'we_abc', 'ak_x', 'pd_1', '..', '%2e%2e')), async (id) => {
      const res = await asUser(t0, writer, { method: 'DELETE', url: `/dashboard/v1/webhook_endpoints/${encodeURIComponent(id)}` });
      check(res.statusCode, res.payload, res.result, id, 'DELETE webhook_endpoints');
    }),
    { numRuns: 150 },
  );
  t.pass();
});
