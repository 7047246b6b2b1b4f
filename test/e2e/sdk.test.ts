import test from 'ava';
import { parse } from 'csv-parse/sync';
import {
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  Payments,
  PermissionError,
  type PaymentIntent,
} from '@payments/sdk';
import { OpenApiResponses } from './openapi-responses';
import { createMerchantWithAdmin, printedDemoKey, serviceEnvironment, startService, type RunningService, type ServiceEnvironment } from './process';

/*
 * The SDK against the real service (`npm start`'s API + worker process): every resource, the
 * errors a merchant meets, auto-pagination, and a webhook event verified the way a receiver would.
 * Every answer is also checked against the OpenAPI document the service serves.
 */

let environment: ServiceEnvironment;
let service: RunningService;
let payments: Payments;
let manualShop: Payments;
let responses: OpenApiResponses;

test.before(async () => {
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  const demoKey = printedDemoKey(service);
  const document: unknown = await (await fetch(`${service.baseUrl}/v1/openapi.json`)).json();
  responses = new OpenApiResponses(document);
  payments = new Payments(demoKey, { baseUrl: service.baseUrl, httpClient: responses.httpClient() });
  const created = await createMerchantWithAdmin(environment.env, { name: 'SDK Shop' }, ['--schedule', 'manual']);
  manualShop = new Payments(created.testApiKey, { baseUrl: service.baseUrl, httpClient: responses.httpClient() });
});

test.after.always(async () => {
  await service?.stop();
  await environment?.cleanup();
});

/** Polls until `check` holds (the worker ticks every 200 ms here). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const order = (name: string) => `sdk-${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test.serial('payment intents: create, retrieve, list with auto-pagination, cancel', async (t) => {
  const orders = [order('a'), order('b'), order('c')];
  const created: PaymentIntent[] = [];
  for (const id of orders)
    created.push(await payments.paymentIntents.create({ amount: 12345, currency: 'THB', merchant_order_id: id, metadata: { cart: id } }));
  t.regex(created[0]?.checkout_url ?? '', /\/c\/[A-Za-z0-9_-]{43}$/);
  t.like(await payments.paymentIntents.retrieve(created[0]?.id), { status: 'created', amount: 12345, metadata: { cart: orders[0] } });

  const ids: string[] = [];
  for await (const pi of payments.paymentIntents.list({ status: 'created', limit: 1 })) {
    ids.push(pi.id);
    if (ids.length === 3) break;
  }
  // Newest first, one per page; intents made within the same second may come in either order.
  t.deepEqual([...ids].sort(), created.map((pi) => pi.id).sort());
  t.is((await payments.paymentIntents.list({ limit: 2 }).autoPagingToArray({ limit: 3 })).length, 3);

  const canceled = await payments.paymentIntents.cancel(created[2]?.id);
  t.is(canceled.status, 'canceled');
  const [latest] = (await payments.events.list({ limit: 1 })).data;
  t.is(latest?.type, 'payment_intent.canceled');
  t.is((await payments.events.retrieve(latest?.id))?.id, latest?.id);
});

test.serial('errors arrive as their classes with code, status, request id and param', async (t) => {
  const missing = await t.throwsAsync(payments.paymentIntents.retrieve('pi_doesnotexist'), { instanceOf: NotFoundError });
  t.is(missing?.statusCode, 404);
  t.truthy(missing?.requestId);
  const invalid = await t.throwsAsync(payments.paymentIntents.create({ amount: 0, currency: 'THB', merchant_order_id: order('x') }), {
    instanceOf: InvalidRequestError,
  });
  t.is(invalid?.param, 'amount');
  const taken = order('taken');
  await payments.paymentIntents.create({ amount: 100, currency: 'THB', merchant_order_id: taken });
  t.is(
    (await t.throwsAsync(payments.paymentIntents.create({ amount: 100, currency: 'THB', merchant_order_id: taken }), { instanceOf: ConflictError }))?.code,
    'merchant_order_id_taken',
  );
  const key = order('key');
  await payments.paymentIntents.create({ amount: 100, currency: 'THB', merchant_order_id: order('y') }, { idempotencyKey: key });
  await t.throwsAsync(payments.paymentIntents.create({ amount: 200, currency: 'THB', merchant_order_id: order('z') }, { idempotencyKey: key }), {
    instanceOf: IdempotencyError,
  });
  await t.throwsAsync(new Payments('sk_test_wrong', { baseUrl: service.baseUrl, httpClient: responses.httpClient() }).balance.retrieve(), {
    instanceOf: AuthenticationError,
  });
  await t.throwsAsync(payments.settlements.create(), { instanceOf: PermissionError, message: /./ });
});

test.serial('a test payment from attempt to settlement, a dispute, the balance and an FX quote', async (t) => {
  const pi = await manualShop.paymentIntents.create({ amount: 50000, currency: 'THB', merchant_order_id: order('pay') });
  const attempt = await manualShop.paymentIntents.attempts.create(pi.id, { payment_method: 'promptpay' });
  t.like(attempt, { object: 'payment_attempt', status: 'pending', next_action: { type: 'qr_code' } });
  t.deepEqual(
    (await manualShop.paymentIntents.attempts.list(pi.id)).data.map((a) => a.id),
    [attempt.id],
  );
  await t.throwsAsync(manualShop.testHelpers.paymentIntents.advance(pi.id, { clock: 'release' }), { instanceOf: ConflictError, message: /./ });
  t.is((await manualShop.testHelpers.paymentIntents.simulate(pi.id, { outcome: 'succeeded' })).status, 'succeeded');
  await eventually(
    () => manualShop.paymentIntents.retrieve(pi.id),
    (intent) => intent.status === 'channel_settled',
    'channel_settled',
  );
  await manualShop.testHelpers.paymentIntents.advance(pi.id, { clock: 'release' });
  await eventually(
    () => manualShop.balance.retrieve(),
    (balance) => balance.available.some((m) => m.amount > 0),
    'available funds',
  );

  const settlement = await manualShop.settlements.create();
  t.like(settlement, { object: 'settlement', mode: 'test' });
  t.is((await manualShop.settlements.retrieve(settlement.id)).id, settlement.id);
  t.deepEqual(
    (await manualShop.settlements.list().autoPagingToArray({ limit: 10 })).map((s) => s.id),
    [settlement.id],
  );

  const disputed = await manualShop.paymentIntents.create({ amount: 20000, currency: 'THB', merchant_order_id: order('dispute') });
  await manualShop.paymentIntents.attempts.create(disputed.id, { payment_method: 'promptpay' });
  await manualShop.testHelpers.paymentIntents.simulate(disputed.id, { outcome: 'succeeded' });
  await manualShop.testHelpers.paymentIntents.simulate(disputed.id, { outcome: 'dispute_opened' });
  const dispute = (await manualShop.disputes.list().autoPagingToArray({ limit: 100 })).find((d) => d.payment_intent === disputed.id);
  if (!dispute) return t.fail('no dispute for the intent');
  t.true((await manualShop.disputes.list({ status: dispute.status })).data.some((d) => d.id === dispute.id));
  t.is((await manualShop.disputes.retrieve(dispute.id)).id, dispute.id);
  // Held while the dispute is open (the evidence below may have it ruled at once).
  t.true((await manualShop.balance.retrieve()).dispute_hold.some((m) => m.amount > 0));
  t.like(await manualShop.disputes.submitEvidence(dispute.id, { evidence: { receipt: 'https://shop.example.com/r/1' } }), {
    evidence: { receipt: 'https://shop.example.com/r/1' },
  });

  const quote = await manualShop.fx.quotes.retrieve({ from: 'USD', to: 'THB', amount: 1000 });
  t.like(quote, { indicative: true, from: 'USD', to: 'THB' });
  t.regex(quote.rate, /^[0-9]+(\.[0-9]+)?$/);

  const types: string[] = [];
  for await (const event of manualShop.events.list({ limit: 5 })) types.push(event.type);
  t.true(types.includes('payment_intent.succeeded') && types.includes('dispute.opened') && types.includes('settlement.paid'), types.join(', '));
});

test.serial('refunds: partial, listed by intent, succeeded on the next tick; a declined one fails; over the remainder is 409', async (t) => {
  const pi = await manualShop.paymentIntents.create({ amount: 30000, currency: 'THB', merchant_order_id: order('refund') });
  await manualShop.paymentIntents.attempts.create(pi.id, { payment_method: 'promptpay' });
  await manualShop.testHelpers.paymentIntents.simulate(pi.id, { outcome: 'succeeded' });
  const refund = await manualShop.refunds.create({ payment_intent: pi.id, amount: 10000, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } });
  t.like(refund, {
    object: 'refund',
    mode: 'test',
    payment_intent: pi.id,
    amount: 10000,
    currency: 'THB',
    status: 'pending',
    reason: 'requested_by_customer',
    metadata: { ticket: 'T-1' },
  });
  t.regex(refund.id, /^re_[A-Z2-7]+$/);
  t.is((await manualShop.paymentIntents.retrieve(pi.id)).amount_refunded, 10000);
  const succeeded = await eventually(
    () => manualShop.refunds.retrieve(refund.id),
    (r) => r.status === 'succeeded',
    'refund succeeded',
  );
  t.truthy(succeeded.succeeded_at);
  // A final refund cannot be simulated again.
  await t.throwsAsync(manualShop.testHelpers.refunds.simulate(refund.id, { outcome: 'failed' }), {
    instanceOf: ConflictError,
    code: 'invalid_state_transition',
  });

  // The simulated channel declines amounts ending in 06 on its next report: failed, and amount_refunded gives it back.
  const declined = await manualShop.refunds.create({ payment_intent: pi.id, amount: 1006 });
  t.like(
    await eventually(
      () => manualShop.refunds.retrieve(declined.id),
      (r) => r.status !== 'pending',
      'refund failed',
    ),
    { status: 'failed', failure_code: 'channel_declined' },
  );
  t.is((await manualShop.paymentIntents.retrieve(pi.id)).amount_refunded, 10000);
  await t.throwsAsync(manualShop.refunds.create({ payment_intent: pi.id, amount: 20001 }), { instanceOf: ConflictError, code: 'refund_exceeds_remaining' });
  const rest = await manualShop.refunds.create({ payment_intent: pi.id });
  t.is(rest.amount, 20000);

  t.deepEqual(
    (await manualShop.refunds.list({ payment_intent: pi.id, limit: 2 }).autoPagingToArray({ limit: 10 })).map((r) => r.id),
    [rest.id, declined.id, refund.id],
  );
  t.deepEqual(
    (await manualShop.refunds.list({ payment_intent: pi.id, status: 'failed' })).data.map((r) => r.id),
    [declined.id],
  );
  const events = (await manualShop.events.list({ limit: 20 })).data.filter((event) => event.data.id === declined.id);
  t.deepEqual(events.map((event) => event.type).sort(), ['refund.created', 'refund.failed']);
  t.like(events[0]?.data, { object: 'refund', payment_intent: pi.id, amount: { amount: 1006, currency: 'THB' } });
});

test.serial('exports: the CSV files of intents, settlements and a settlement’s balance transactions, whose lines add up to its amount', async (t) => {
  const [settlement] = await manualShop.settlements.list().autoPagingToArray({ limit: 10 });
  if (!settlement) return t.fail('no settlement');
  const lines = await manualShop.exports.balanceTransactions({ settlement: settlement.id });
  t.regex(lines.filename, new RegExp(`^balance_transactions-test-\\d{4}-\\d{2}-\\d{2}-${settlement.id}\\.csv$`));
  const rows: Record<string, string>[] = parse(lines.text, { columns: true });
  t.deepEqual(
    rows.map((row) => row.id),
    (await manualShop.balanceTransactions.list({ settlement: settlement.id }).autoPagingToArray({ limit: 100 })).map((line) => line.id),
  );
  const covered = rows.filter((row) => row.type !== 'settlement');
  t.is(
    covered.reduce((sum, row) => sum + BigInt(row.moves_available_minor ?? ''), 0n),
    BigInt(settlement.amount.amount),
  );
  // The decimals, read by their digits: satang.
  t.is(
    covered.reduce((sum, row) => sum + BigInt((row.moves_available ?? '').replace('.', '')), 0n),
    BigInt(settlement.amount.amount),
  );
  const settlements: Record<string, string>[] = parse((await manualShop.exports.settlements()).text, { columns: true });
  t.like(settlements[0], { id: settlement.id, amount_minor: String(settlement.amount.amount), currency: 'THB' });
  // The worker may move an intent on between two reads: the ids and their order stay.
  const intents = await manualShop.exports.paymentIntents();
  t.regex(intents.filename, /^payment_intents-test-\d{4}-\d{2}-\d{2}\.csv$/);
  const intentRows: Record<string, string>[] = parse(intents.text, { columns: true });
  t.deepEqual(
    intentRows.map((row) => row.id),
    (await manualShop.paymentIntents.list().autoPagingToArray({ limit: 100 })).map((intent) => intent.id),
  );
  t.is(intentRows.filter((row) => row.settlement === settlement.id).length, settlement.payments ?? 0);
  t.true((await manualShop.exports.paymentIntents({ status: 'canceled' })).text.startsWith('id,created,mode,status,'));
  const refused = await t.throwsAsync(manualShop.exports.balanceTransactions({ 'created[gte]': '2026-02-30' }), { instanceOf: InvalidRequestError });
  t.is(refused?.param, 'created[gte]');
});

test.serial('the platform keys are listed, and a test header signs an event body constructEvent accepts', async (t) => {
  const keys = await payments.webhookPublicKeys.list();
  t.true(keys.data.length >= 1);
  t.like(keys.data[0], { object: 'webhook_public_key', algorithm: 'ed25519' });
  // The service signs deliveries to public hosts only; a merchant's own test signs with generateTestHeader.
  const [event] = (await payments.events.list({ limit: 1 })).data;
  const body = JSON.stringify(event);
  const secret = 'ab'.repeat(32);
  const header = payments.webhooks.generateTestHeader({ payload: body, secret });
  t.is(payments.webhooks.constructEvent(body, header, { secret }).id, event?.id);
});

test.serial('every answer above matches the OpenAPI document, and every /v1 operation was called', (t) => {
  t.deepEqual(responses.problems, []);
  const operations = [...new Set([...responses.covered].map((seen) => seen.replace(/ \d+$/, '')))].sort();
  t.deepEqual(operations, [
    'GET /v1/balance',
    'GET /v1/balance_transactions',
    'GET /v1/disputes',
    'GET /v1/disputes/{id}',
    'GET /v1/events',
    'GET /v1/events/{id}',
    'GET /v1/exports/balance_transactions.csv',
    'GET /v1/exports/payment_intents.csv',
    'GET /v1/exports/settlements.csv',
    'GET /v1/fx/quotes',
    'GET /v1/payment_intents',
    'GET /v1/payment_intents/{id}',
    'GET /v1/payment_intents/{id}/attempts',
    'GET /v1/refunds',
    'GET /v1/refunds/{id}',
    'GET /v1/settlements',
    'GET /v1/settlements/{id}',
    'GET /v1/webhook_public_keys',
    'POST /v1/disputes/{id}/evidence',
    'POST /v1/payment_intents',
    'POST /v1/payment_intents/{id}/attempts',
    'POST /v1/payment_intents/{id}/cancel',
    'POST /v1/refunds',
    'POST /v1/settlements',
    'POST /v1/test/payment_intents/{id}/advance',
    'POST /v1/test/payment_intents/{id}/simulate',
    'POST /v1/test/refunds/{id}/simulate',
  ]);
  for (const status of [400, 401, 403, 404, 409, 422])
    t.true(
      [...responses.covered].some((seen) => seen.endsWith(` ${status}`)),
      `an error ${status} was checked`,
    );
});
