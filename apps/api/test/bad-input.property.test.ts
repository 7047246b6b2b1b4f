import test from 'ava';
import fc from 'fast-check';
import { assertProperAnswer } from './helpers/error-envelope';
import { apiObjectAt, jsonAt, textAt } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

let t0: TestApp;
let shop: TestMerchant;
withAppAndMerchant({}, (started) => ({ t0, shop } = started));

const CREATE_FIELDS = [
  'amount',
  'currency',
  'merchant_order_id',
  'payment_method',
  'channel_preference',
  'description',
  'customer',
  'return_url',
  'expires_in',
  'metadata',
];

/** Any JSON a client could send, weighted towards the fields and shapes the API knows. */
const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constantFrom('THB', 'thb', 'EUR', 'promptpay', 'https://shop.example.com/x', 'http://127.0.0.1/', '', '\u0000', 'x'.repeat(300)),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 45 }), fc.oneof(fc.string({ maxLength: 600 }), fc.integer()), { maxKeys: 55 }),
  fc.constantFrom(2 ** 53, -1, 0, 1, 1e300),
);
const createBodyArb = fc.dictionary(fc.oneof(fc.constantFrom(...CREATE_FIELDS), fc.string({ maxLength: 10 })), anyValue, { maxKeys: 12 });

test('no create body makes a 5xx, and every refusal is the envelope naming the field', async (t) => {
  let seq = 0;
  await fc.assert(
    fc.asyncProperty(createBodyArb, async (body) => {
      seq += 1;
      const res = await t0.request({
        method: 'POST',
        url: '/v1/payment_intents',
        key: shop.testKey,
        idempotencyKey: `fuzz-${seq}-${Math.random()}`,
        payload: body,
      });
      assertProperAnswer(res.statusCode, res.result, res.payload);
      // A body that is not JSON at all (e.g. a __proto__ key) names no field: invalid_json.
      if (res.statusCode === 400 && jsonAt(res.result, 'error', 'code') !== 'invalid_json') {
        const param = textAt(res.result, 'error', 'param');
        const field = param.split('.')[0];
        if (!(field in body) && !['merchant_order_id', 'amount', 'currency', 'Idempotency-Key'].includes(field)) {
          throw new Error(`param ${param} names no field of ${JSON.stringify(body)}`);
        }
      }
    }),
    { numRuns: 300 },
  );
  t.pass();
});

const queryValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom('0', '101', '-1', 'pi_abc', 'evt_ABC', '2026-01-01T00:00:00Z', 'created', '%00', '%ZZ'),
);
const queryArb = fc.dictionary(fc.constantFrom('limit', 'starting_after', 'status', 'merchant_order_id', 'created[gte]', 'x'), queryValue, { maxKeys: 5 });

test('no list query makes a 5xx', async (t) => {
  await fc.assert(
    fc.asyncProperty(queryArb, async (query) => {
      const qs = Object.entries(query)
        .map(([key, value]) => `${encodeURIComponent(key)}=${value.startsWith('%') ? value : encodeURIComponent(value)}`)
        .join('&');
      const res = await t0.request({ method: 'GET', url: `/v1/payment_intents?${qs}`, key: shop.testKey });
      assertProperAnswer(res.statusCode, res.result, res.payload);
    }),
    { numRuns: 300 },
  );
  t.pass();
});

const headerValue = fc.oneof(
  fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.constantFrom('', 'Bearer', 'Bearer ', '2026-09-01', 'x'.repeat(400)),
);
const headersArb = fc.dictionary(fc.constantFrom('authorization', 'api-version', 'idempotency-key', 'content-type', 'accept'), headerValue, { maxKeys: 5 });

test('no header combination makes a 5xx', async (t) => {
  await fc.assert(
    fc.asyncProperty(headersArb, fc.boolean(), async (headers, useKey) => {
      const res = await t0.server.inject({
        method: 'POST',
        url: '/v1/payment_intents',
        headers: { ...(useKey ? { authorization: `Bearer ${shop.testKey}` } : {}), ...headers },
        payload: JSON.stringify({ amount: 100, currency: 'THB', merchant_order_id: `h-${Math.random()}` }),
      });
      assertProperAnswer(res.statusCode, res.result, res.payload);
    }),
    { numRuns: 300 },
  );
  t.pass();
});

const attemptBodyArb = fc.dictionary(
  fc.oneof(fc.constantFrom('payment_method', 'channel'), fc.string({ maxLength: 8 })),
  fc.oneof(anyValue, fc.constantFrom('promptpay', 'truemoney', 'paynow', 'simulator', 'rest')),
  { maxKeys: 4 },
);
const simulateBodyArb = fc.dictionary(
  fc.oneof(fc.constantFrom('outcome', 'failure_code', 'amount', 'currency'), fc.string({ maxLength: 8 })),
  fc.oneof(anyValue, fc.constantFrom('succeeded', 'failed', 'pending', 'dispute_opened', 'insufficient_funds', 'risk_blocked', 'expired')),
  { maxKeys: 5 },
);

test('no attempt or simulate body makes a 5xx, and every refusal is the envelope', async (t) => {
  let seq = 0;
  const post = (url: string, payload: unknown) => {
    seq += 1;
    return t0.request({ method: 'POST', url, key: shop.testKey, idempotencyKey: `fuzz-as-${seq}-${Math.random()}`, payload });
  };
  await fc.assert(
    fc.asyncProperty(attemptBodyArb, simulateBodyArb, async (attemptBody, simulateBody) => {
      const intent = apiObjectAt(
        (await post('/v1/payment_intents', { amount: 1000, currency: 'THB', merchant_order_id: `fz-${seq}-${Math.random()}` })).result,
      );
      const attempt = await post(`/v1/payment_intents/${intent.id}/attempts`, attemptBody);
      assertProperAnswer(attempt.statusCode, attempt.result, attempt.payload);
      const simulated = await post(`/v1/test/payment_intents/${intent.id}/simulate`, simulateBody);
      assertProperAnswer(simulated.statusCode, simulated.result, simulated.payload);
    }),
    { numRuns: 100 },
  );
  t.pass();
});
