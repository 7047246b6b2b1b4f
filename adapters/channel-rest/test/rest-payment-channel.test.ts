import ava, { type ExecutionContext } from 'ava';
import nock from 'nock';
import { CoreError, PAYMENT_METHODS, payableCurrencies, type PlaceOrderRequest, type PlaceRefundRequest } from '@payments/core';
import { createRestChannel, RestPaymentChannel, signRestCallback, type RestPaymentChannelOptions } from '../src';

const TEST_URL = 'https://sandbox.channel.test';
const LIVE_URL = 'https://api.channel.test';
const TEST_KEY = 'ck_test_0123456789abcdef';
const LIVE_KEY = 'ck_live_fedcba9876543210';
const TEST_SECRET = 'cbs_test_secret_0123456789';
const LIVE_SECRET = 'cbs_live_secret_0123456789';
/** A channel's message that must never reach our errors. */
const CHANNEL_DETAIL = 'INTERNAL-TRACE-7731 db=orders-primary';

// nock's interceptors are process-wide: the tests of this file run one at a time.
const test = ava.serial;

nock.disableNetConnect();
ava.afterEach.always(() => {
  nock.cleanAll();
});
ava.after.always(() => {
  nock.enableNetConnect();
});

interface LogLine {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

function channel(options: Partial<RestPaymentChannelOptions> = {}, logs: LogLine[] = []): RestPaymentChannel {
  return new RestPaymentChannel({
    test: { baseUrl: TEST_URL, apiKey: TEST_KEY, callbackSecret: TEST_SECRET },
    live: { baseUrl: LIVE_URL, apiKey: LIVE_KEY, callbackSecret: LIVE_SECRET },
    timeoutMs: 600, // room for a loaded machine; the delayed answers below (1 s) still time out
    retryBaseDelayMs: 5,
    logger: { warn: (details, message) => logs.push({ details, message }) },
    ...options,
  });
}

const EXPIRES = new Date('2030-01-31T10:30:00.000Z');

function order(overrides: Partial<PlaceOrderRequest> = {}): PlaceOrderRequest {
  return {
    mode: 'test',
    reference: 'att_ABCDEF234567',
    amount: 10050,
    currency: 'THB',
    paymentMethod: 'promptpay',
    callbackUrl: 'https://payments.example/channels/rest/callback',
    expiresAt: EXPIRES,
    ...overrides,
  };
}

const CREATE_BODY = {
  reference: 'att_ABCDEF234567',
  amount: 10050,
  currency: 'THB',
  payment_method: 'promptpay',
  callback_url: 'https://payments.example/channels/rest/callback',
  expires_at: '2030-01-31T10:30:00.000Z',
};

const CREATED = {
  id: 'ord_9f2c1d',
  reference: 'att_ABCDEF234567',
  status: 'pending',
  amount: 10050,
  currency: 'THB',
  next_action: { type: 'qr_code', qr_data: '00020101021229370016A000000677010111' },
};

function assertChannelErrorRefusal(t: ExecutionContext, result: Awaited<ReturnType<RestPaymentChannel['placeOrder']>>): void {
  t.is(result.outcome, 'refused');
  if (result.outcome !== 'refused') return;
  t.is(result.failureCode, 'channel_error');
  t.false(result.message.includes(CHANNEL_DETAIL), 'the channel body leaked into the message');
}

async function assertThrowsChannelError(t: ExecutionContext, run: () => Promise<unknown>): Promise<CoreError> {
  const error = await t.throwsAsync(run, { instanceOf: CoreError });
  t.is(error?.code, 'channel_error');
  t.is(error?.category, 'unavailable');
  t.false(error?.message.includes(CHANNEL_DETAIL), 'the channel body leaked into the message');
  return error;
}

// ---------------------------------------------------------------- capabilities

test('capabilities: the rest channel offers every catalog method and currency in its configured modes and cannot simulate', (t) => {
  const both = channel();
  t.is(both.capabilities.name, 'rest');
  t.deepEqual([...both.capabilities.modes], ['test', 'live']);
  t.deepEqual(
    [...both.capabilities.methods],
    PAYMENT_METHODS.map((m) => m.method),
  );
  t.deepEqual([...both.capabilities.currencies], payableCurrencies());
  t.false(both.capabilities.canSimulate);
  t.is(both.capabilities.pendingTimeoutMs, 15 * 60_000);
  t.false('simulate' in both);

  const testOnly = createRestChannel({ test: { baseUrl: TEST_URL, apiKey: TEST_KEY, callbackSecret: TEST_SECRET } });
  t.deepEqual(testOnly ? [...testOnly.capabilities.modes] : undefined, ['test']);
  t.is(createRestChannel({}), undefined);
});

test('configuration: a live endpoint over plain http, or one without a secret, is refused at start', (t) => {
  t.throws(() => new RestPaymentChannel({ live: { baseUrl: 'http://api.channel.test', apiKey: LIVE_KEY, callbackSecret: LIVE_SECRET } }), { message: /https/ });
  t.throws(() => new RestPaymentChannel({ test: { baseUrl: TEST_URL, apiKey: TEST_KEY, callbackSecret: '' } }));
  t.throws(() => new RestPaymentChannel({}));
  t.notThrows(() => new RestPaymentChannel({ test: { baseUrl: 'http://127.0.0.1:4300/', apiKey: TEST_KEY, callbackSecret: TEST_SECRET } }));
});

// ---------------------------------------------------------------- placeOrder

test('placeOrder: a QR method is placed with the test key, integer amount and ISO expiry, and answers the QR', async (t) => {
  const scope = nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' } })
    .post('/v1/orders', CREATE_BODY)
    .reply(201, CREATED);
  const result = await channel().placeOrder(order());
  t.deepEqual(result, { outcome: 'placed', channelOrderId: 'ord_9f2c1d', nextAction: { type: 'qr_code', qrData: CREATED.next_action.qr_data } });
  t.true(scope.isDone());
});

test('placeOrder: a wallet in live mode goes to the live URL with the live key and answers the redirect', async (t) => {
  const scope = nock(LIVE_URL, { reqheaders: { authorization: `Bearer ${LIVE_KEY}` } })
    .post('/v1/orders', { ...CREATE_BODY, currency: 'PHP', payment_method: 'gcash' })
    .reply(201, { ...CREATED, currency: 'PHP', next_action: { type: 'redirect', url: 'https://pay.channel.test/o/ord_9f2c1d' } });
  const result = await channel().placeOrder(order({ mode: 'live', currency: 'PHP', paymentMethod: 'gcash' }));
  t.deepEqual(result, { outcome: 'placed', channelOrderId: 'ord_9f2c1d', nextAction: { type: 'redirect', url: 'https://pay.channel.test/o/ord_9f2c1d' } });
  t.true(scope.isDone());
});

test("placeOrder: a repeated create that finds its order failed since is refused with the order's failure code", async (t) => {
  nock(TEST_URL)
    .post('/v1/orders')
    .reply(200, { ...CREATED, status: 'failed', failure_code: 'payer_cancelled', next_action: undefined })
    .post('/v1/orders')
    .reply(200, { ...CREATED, status: 'failed', failure_code: 'something_new' });
  t.like(await channel().placeOrder(order()), { outcome: 'refused', failureCode: 'payer_cancelled' });
  t.like(await channel().placeOrder(order()), { outcome: 'refused', failureCode: 'channel_error' });
});

test('placeOrder: a live redirect to a plain http URL is a channel error', async (t) => {
  nock(LIVE_URL)
    .post('/v1/orders')
    .reply(201, { ...CREATED, currency: 'PHP', next_action: { type: 'redirect', url: 'http://pay.channel.test/o/1' } });
  assertChannelErrorRefusal(t, await channel().placeOrder(order({ mode: 'live', currency: 'PHP', paymentMethod: 'gcash' })));
});

test('placeOrder: idempotent create is retried with the same reference after a 503 and a timeout, and the repeat answer (200) is accepted', async (t) => {
  const bodies: unknown[] = [];
  const scope = nock(TEST_URL)
    .post('/v1/orders', (body) => (bodies.push(body), true))
    .reply(503, { error: { code: 'unavailable', message: CHANNEL_DETAIL } })
    .post('/v1/orders', (body) => (bodies.push(body), true))
    .delay(1_000)
    .reply(201, CREATED)
    .post('/v1/orders', (body) => (bodies.push(body), true))
    .reply(200, CREATED);
  const logs: LogLine[] = [];
  const result = await channel({}, logs).placeOrder(order());
  t.is(result.outcome, 'placed');
  t.true(scope.isDone());
  t.is(bodies.length, 3);
  t.deepEqual(bodies, [CREATE_BODY, CREATE_BODY, CREATE_BODY]);
  t.deepEqual(
    logs.map((line) => line.details.reason),
    ['HTTP 503', 'timeout'],
  );
  const logged = JSON.stringify(logs);
  t.false(logged.includes(TEST_KEY) || logged.includes(TEST_SECRET) || logged.includes(CHANNEL_DETAIL), 'a log carried a secret or a channel body');
});

test('placeOrder: a channel that times out on every try is a channel_error refusal after three tries', async (t) => {
  let requests = 0;
  nock(TEST_URL)
    .post('/v1/orders')
    .times(3)
    .delay(1_000)
    .reply(() => {
      requests++;
      return [201, CREATED];
    });
  const started = Date.now();
  assertChannelErrorRefusal(t, await channel({ timeoutMs: 100 }).placeOrder(order()));
  t.is(requests, 3);
  t.true(Date.now() - started < 900, 'each try is cut at the timeout');
});

test('placeOrder: connection errors are a channel_error refusal after the retries', async (t) => {
  const scope = nock(TEST_URL).post('/v1/orders').times(3).replyWithError({ code: 'ECONNRESET', message: CHANNEL_DETAIL });
  assertChannelErrorRefusal(t, await channel().placeOrder(order()));
  t.true(scope.isDone());
});

test('placeOrder: a channel that answers 500 on every try is a channel_error refusal', async (t) => {
  const scope = nock(TEST_URL).post('/v1/orders').times(3).reply(500, CHANNEL_DETAIL);
  assertChannelErrorRefusal(t, await channel().placeOrder(order()));
  t.true(scope.isDone());
});

test('placeOrder: the network is never reached when nock has no answer (real network blocked)', async (t) => {
  assertChannelErrorRefusal(t, await channel({ retries: 0 }).placeOrder(order()));
});

for (const [status, body] of [
  [400, { error: { code: 'invalid_request', message: CHANNEL_DETAIL } }],
  [401, { error: { code: 'unauthorized', message: CHANNEL_DETAIL } }],
  [409, { error: { code: 'reference_conflict', message: CHANNEL_DETAIL } }],
  [302, ''],
] as const) {
  test(`placeOrder: HTTP ${status} is a channel_error refusal and is not retried`, async (t) => {
    let requests = 0;
    nock(TEST_URL)
      .post('/v1/orders')
      .times(3)
      .reply(() => {
        requests++;
        return [status, body, status === 302 ? { location: 'https://elsewhere.test/' } : {}];
      });
    assertChannelErrorRefusal(t, await channel().placeOrder(order()));
    t.is(requests, 1);
  });
}

test('placeOrder: malformed JSON in a 201 is a channel_error refusal, not retried', async (t) => {
  let requests = 0;
  nock(TEST_URL)
    .post('/v1/orders')
    .times(2)
    .reply(() => {
      requests++;
      return [201, `{"id":"ord_9f2c1d","status":"pending","note":"${CHANNEL_DETAIL}"`, { 'content-type': 'application/json' }];
    });
  assertChannelErrorRefusal(t, await channel().placeOrder(order()));
  t.is(requests, 1);
});

const WRONG_CREATE_ANSWERS: ReadonlyArray<readonly [string, unknown]> = [
  ['a float amount', { ...CREATED, amount: 10050.5 }],
  ['an amount as a string', { ...CREATED, amount: '10050' }],
  ['another amount than requested', { ...CREATED, amount: 10049 }],
  ['another currency than requested', { ...CREATED, currency: 'SGD' }],
  ['another reference', { ...CREATED, reference: 'att_OTHER' }],
  ['an unknown status', { ...CREATED, status: 'authorised' }],
  ['an id outside the protocol pattern', { ...CREATED, id: '../../admin' }],
  ['no next_action', { ...CREATED, next_action: undefined }],
  ['a redirect for a QR method', { ...CREATED, next_action: { type: 'redirect', url: 'https://pay.channel.test/x' } }],
  ['an empty qr_data', { ...CREATED, next_action: { type: 'qr_code', qr_data: '' } }],
  ['an array', [CREATED]],
  ['null', null],
  ['an oversized body', { ...CREATED, padding: 'x'.repeat(1024 * 1024) }],
];

for (const [what, answer] of WRONG_CREATE_ANSWERS) {
  test(`placeOrder: a create answer with ${what} is a channel_error refusal`, async (t) => {
    nock(TEST_URL).post('/v1/orders').reply(201, JSON.stringify(answer), { 'content-type': 'application/json' });
    assertChannelErrorRefusal(t, await channel().placeOrder(order()));
  });
}

for (const [status, code] of [
  [402, 'insufficient_funds'],
  [402, 'payer_cancelled'],
  [422, 'risk_blocked'],
] as const) {
  test(`placeOrder: a declared refusal ${status} ${code} is refused with that code and our own message`, async (t) => {
    nock(TEST_URL)
      .post('/v1/orders')
      .reply(status, { error: { code, message: CHANNEL_DETAIL } });
    const result = await channel().placeOrder(order());
    t.is(result.outcome, 'refused');
    if (result.outcome !== 'refused') return;
    t.is(result.failureCode, code);
    t.false(result.message.includes(CHANNEL_DETAIL));
  });
}

for (const [what, status, body] of [
  ['an unknown refusal code', 402, { error: { code: 'card_velocity', message: CHANNEL_DETAIL } }],
  ['a platform failure code', 422, { error: { code: 'expired', message: CHANNEL_DETAIL } }],
  ['a body without an error object', 402, { message: CHANNEL_DETAIL }],
  ['a body that is not JSON', 422, CHANNEL_DETAIL],
] as const) {
  test(`placeOrder: a refusal with ${what} is a channel_error refusal`, async (t) => {
    nock(TEST_URL).post('/v1/orders').reply(status, body);
    assertChannelErrorRefusal(t, await channel().placeOrder(order()));
  });
}

test('placeOrder: a mode the channel is not configured for is refused without a request', async (t) => {
  const testOnly = new RestPaymentChannel({ test: { baseUrl: TEST_URL, apiKey: TEST_KEY, callbackSecret: TEST_SECRET } });
  assertChannelErrorRefusal(t, await testOnly.placeOrder(order({ mode: 'live' })));
});

test('placeOrder and queryOrder send the trace headers of the call when tracing gives them, never in place of the key; none without', async (t) => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const traced = channel({ traceHeaders: () => ({ traceparent, authorization: 'Bearer not-the-key' }) });
  const created = nock(TEST_URL, { reqheaders: { traceparent, authorization: `Bearer ${TEST_KEY}` } })
    .post('/v1/orders', CREATE_BODY)
    .reply(201, CREATED);
  t.like(await traced.placeOrder(order()), { outcome: 'placed' });
  t.true(created.isDone());
  const queried = nock(TEST_URL, { reqheaders: { traceparent } })
    .get('/v1/orders/ord_9f2c1d')
    .reply(200, { id: 'ord_9f2c1d', reference: 'att_ABCDEF234567', status: 'pending', amount: 10050, currency: 'THB' });
  t.like(await traced.queryOrder('test', 'ord_9f2c1d'), { status: 'pending' });
  t.true(queried.isDone());
  const untraced = nock(TEST_URL, { badheaders: ['traceparent'] })
    .post('/v1/orders', CREATE_BODY)
    .reply(201, CREATED);
  t.like(await channel().placeOrder(order()), { outcome: 'placed' });
  t.true(untraced.isDone());
});

// ---------------------------------------------------------------- queryOrder

const QUERIED = { id: 'ord_9f2c1d', reference: 'att_ABCDEF234567', status: 'pending', amount: 10050, currency: 'THB' };

test('queryOrder: a pending order is read with the mode key', async (t) => {
  const scope = nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
    .get('/v1/orders/ord_9f2c1d')
    .reply(200, QUERIED);
  t.deepEqual(await channel().queryOrder('test', 'ord_9f2c1d'), {
    channelOrderId: 'ord_9f2c1d',
    reference: 'att_ABCDEF234567',
    status: 'pending',
    amount: 10050,
    currency: 'THB',
  });
  t.true(scope.isDone());
});

test('queryOrder: a paid and settled order carries what was paid and when it settled', async (t) => {
  nock(LIVE_URL, { reqheaders: { authorization: `Bearer ${LIVE_KEY}` } })
    .get('/v1/orders/ord_9f2c1d')
    .reply(200, { ...QUERIED, status: 'paid', amount: 10000, settled_at: '2030-02-01T00:00:00.000Z', extra_field: 'ignored' });
  const status = await channel().queryOrder('live', 'ord_9f2c1d');
  t.is(status.status, 'paid');
  t.is(status.amount, 10000);
  t.deepEqual(status.settledAt, new Date('2030-02-01T00:00:00.000Z'));
});

test('queryOrder: a failed order carries its failure code; an unknown code becomes channel_error', async (t) => {
  nock(TEST_URL)
    .get('/v1/orders/ord_1')
    .reply(200, { ...QUERIED, id: 'ord_1', status: 'failed', failure_code: 'risk_blocked' })
    .get('/v1/orders/ord_2')
    .reply(200, { ...QUERIED, id: 'ord_2', status: 'failed', failure_code: 'fraud_rule_17' })
    .get('/v1/orders/ord_3')
    .reply(200, { ...QUERIED, id: 'ord_3', status: 'failed', failure_code: 'expired' });
  t.is((await channel().queryOrder('test', 'ord_1')).failureCode, 'risk_blocked');
  t.is((await channel().queryOrder('test', 'ord_2')).failureCode, 'channel_error');
  t.is((await channel().queryOrder('test', 'ord_3')).failureCode, 'expired');
});

test('queryOrder: a 502 then a connection error are retried and the third answer counts', async (t) => {
  const scope = nock(TEST_URL)
    .get('/v1/orders/ord_9f2c1d')
    .reply(502, CHANNEL_DETAIL)
    .get('/v1/orders/ord_9f2c1d')
    .replyWithError('socket hang up')
    .get('/v1/orders/ord_9f2c1d')
    .reply(200, { ...QUERIED, status: 'processing' });
  t.is((await channel().queryOrder('test', 'ord_9f2c1d')).status, 'processing');
  t.true(scope.isDone());
});

test('queryOrder: a channel that times out throws channel_error', async (t) => {
  nock(TEST_URL)
    .get('/v1/orders/ord_9f2c1d')
    .times(3)
    .delay(1_000)
    .reply(200, { ...QUERIED, status: 'paid' });
  await assertThrowsChannelError(t, () => channel({ timeoutMs: 100 }).queryOrder('test', 'ord_9f2c1d'));
});

test('queryOrder: a persistent 503 throws channel_error after three tries', async (t) => {
  const scope = nock(TEST_URL)
    .get('/v1/orders/ord_9f2c1d')
    .times(3)
    .reply(503, { error: { code: 'down', message: CHANNEL_DETAIL } });
  await assertThrowsChannelError(t, () => channel().queryOrder('test', 'ord_9f2c1d'));
  t.true(scope.isDone());
});

test('queryOrder: a 404 throws channel_error without a retry', async (t) => {
  let requests = 0;
  nock(TEST_URL)
    .get('/v1/orders/ord_9f2c1d')
    .times(3)
    .reply(() => {
      requests++;
      return [404, { error: { code: 'order_not_found', message: CHANNEL_DETAIL } }];
    });
  await assertThrowsChannelError(t, () => channel().queryOrder('test', 'ord_9f2c1d'));
  t.is(requests, 1);
});

const WRONG_QUERY_ANSWERS: ReadonlyArray<readonly [string, string]> = [
  ['truncated JSON', JSON.stringify({ ...QUERIED, status: 'paid' }).slice(0, 40)],
  ['HTML', `<html><body>${CHANNEL_DETAIL}</body></html>`],
  ['a float amount', JSON.stringify({ ...QUERIED, status: 'paid', amount: 100.5 })],
  ['an exponent amount that is not an integer', '{"id":"ord_9f2c1d","reference":"att_ABCDEF234567","status":"paid","amount":1.005e2,"currency":"THB"}'],
  ['a negative amount', JSON.stringify({ ...QUERIED, status: 'paid', amount: -10050 })],
  ['an amount beyond 2^53', JSON.stringify({ ...QUERIED, status: 'paid', amount: 2 ** 53 + 2 })],
  ['an unknown status', JSON.stringify({ ...QUERIED, status: 'succeeded' })],
  ['a missing status', JSON.stringify({ ...QUERIED, status: undefined })],
  ['another order id', JSON.stringify({ ...QUERIED, id: 'ord_other', status: 'paid' })],
  ['a lower-case currency', JSON.stringify({ ...QUERIED, status: 'paid', currency: 'thb' })],
  ['an unreadable settled_at', JSON.stringify({ ...QUERIED, status: 'paid', settled_at: 'yesterday' })],
  ['an array', JSON.stringify([{ ...QUERIED, status: 'paid' }])],
  ['an empty body', ''],
];

for (const [what, body] of WRONG_QUERY_ANSWERS) {
  test(`queryOrder: an answer with ${what} throws channel_error (never a success)`, async (t) => {
    nock(TEST_URL).get('/v1/orders/ord_9f2c1d').reply(200, body, { 'content-type': 'application/json' });
    await assertThrowsChannelError(t, () => channel().queryOrder('test', 'ord_9f2c1d'));
  });
}

test('queryOrder: an order id outside the protocol pattern is refused without a request', async (t) => {
  await assertThrowsChannelError(t, () => channel().queryOrder('test', '../orders?all=1'));
});

test('queryOrder: a mode the channel is not configured for throws channel_error', async (t) => {
  const liveOnly = new RestPaymentChannel({ live: { baseUrl: LIVE_URL, apiKey: LIVE_KEY, callbackSecret: LIVE_SECRET } });
  await assertThrowsChannelError(t, () => liveOnly.queryOrder('test', 'ord_9f2c1d'));
});

// ---------------------------------------------------------------- voidOrder

test('voidOrder: a pending order is voided; an already failed one is accepted too', async (t) => {
  const scope = nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
    .post('/v1/orders/ord_9f2c1d/void', {})
    .reply(200, { ...QUERIED, status: 'failed', failure_code: 'expired' })
    .post('/v1/orders/ord_9f2c1d/void', {})
    .reply(200, { ...QUERIED, status: 'failed', failure_code: 'payer_cancelled' });
  await t.notThrowsAsync(channel().voidOrder('test', 'ord_9f2c1d'));
  await t.notThrowsAsync(channel().voidOrder('test', 'ord_9f2c1d'));
  t.true(scope.isDone());
});

test('voidOrder: a paid order (409 order_paid) throws channel_error for the caller to log', async (t) => {
  nock(TEST_URL)
    .post('/v1/orders/ord_9f2c1d/void')
    .reply(409, { error: { code: 'order_paid', message: CHANNEL_DETAIL } });
  const error = await assertThrowsChannelError(t, () => channel().voidOrder('test', 'ord_9f2c1d'));
  t.regex(error.message, /already paid/);
});

test('voidOrder: best effort: a 503 is not retried and throws channel_error', async (t) => {
  let requests = 0;
  nock(TEST_URL)
    .post('/v1/orders/ord_9f2c1d/void')
    .times(3)
    .reply(() => {
      requests++;
      return [503, CHANNEL_DETAIL];
    });
  await assertThrowsChannelError(t, () => channel().voidOrder('test', 'ord_9f2c1d'));
  t.is(requests, 1);
});

test('voidOrder: a timeout, or an answer that says the order is still pending, throws channel_error', async (t) => {
  nock(TEST_URL)
    .post('/v1/orders/ord_1/void')
    .delay(1_000)
    .reply(200, { ...QUERIED, id: 'ord_1', status: 'failed' })
    .post('/v1/orders/ord_2/void')
    .reply(200, { ...QUERIED, id: 'ord_2', status: 'pending' });
  await assertThrowsChannelError(t, () => channel({ timeoutMs: 100 }).voidOrder('test', 'ord_1'));
  await assertThrowsChannelError(t, () => channel().voidOrder('test', 'ord_2'));
});

// ---------------------------------------------------------------- disputes

const DISPUTE = {
  id: 'dsp_41aa',
  order_id: 'ord_9f2c1d',
  reference: 'att_ABCDEF234567',
  status: 'opened',
  amount: 10050,
  currency: 'THB',
  reason: 'fraudulent',
};

test('verifyCallback: a signed dispute notice is parsed to the dispute it names; its other claims decide nothing', (t) => {
  const body = JSON.stringify({ type: 'dispute', ...DISPUTE, status: 'lost' });
  const parsed = channel().verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, body) }, body);
  t.deepEqual(parsed, { kind: 'dispute', channelDisputeId: 'dsp_41aa' });
  const badId = JSON.stringify({ type: 'dispute', id: '../orders/1' });
  const error = t.throws(() => channel().verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, badId) }, badId), {
    instanceOf: CoreError,
  });
  t.is(error?.code, 'invalid_callback');
  const forged = t.throws(() => channel().verifyCallback('test', { 'channel-signature': signRestCallback(LIVE_SECRET, body) }, body), {
    instanceOf: CoreError,
  });
  t.is(forged?.code, 'invalid_signature');
});

test("queryDispute: GET /v1/disputes/{id} with the mode's key answers the channel's record of the dispute", async (t) => {
  const scope = nock(LIVE_URL, { reqheaders: { authorization: `Bearer ${LIVE_KEY}` } })
    .get('/v1/disputes/dsp_41aa')
    .reply(200, { ...DISPUTE, status: 'under_review', extra_field: 'ignored' });
  t.deepEqual(await channel().queryDispute('live', 'dsp_41aa'), {
    channelDisputeId: 'dsp_41aa',
    channelOrderId: 'ord_9f2c1d',
    reference: 'att_ABCDEF234567',
    status: 'under_review',
    amount: 10050,
    currency: 'THB',
    reason: 'fraudulent',
  });
  t.true(scope.isDone());
});

test('queryDispute: retried after a 503; a 404, another id, a float amount or an unknown status is channel_error', async (t) => {
  const logs: LogLine[] = [];
  nock(TEST_URL)
    .get('/v1/disputes/dsp_41aa')
    .reply(503, { error: { code: 'unavailable', message: CHANNEL_DETAIL } })
    .get('/v1/disputes/dsp_41aa')
    .reply(200, { ...DISPUTE, status: 'won', reason: 42 });
  const won = await channel({}, logs).queryDispute('test', 'dsp_41aa');
  t.like(won, { status: 'won' });
  t.false('reason' in won, 'a malformed reason is dropped');
  t.like(logs[0], { details: { operation: 'query_dispute', retry: 1, reason: 'HTTP 503' } });

  nock(TEST_URL)
    .get('/v1/disputes/dsp_1')
    .reply(404, { error: { code: 'dispute_not_found', message: CHANNEL_DETAIL } })
    .get('/v1/disputes/dsp_2')
    .reply(200, { ...DISPUTE, id: 'dsp_other' })
    .get('/v1/disputes/dsp_3')
    .reply(200, { ...DISPUTE, id: 'dsp_3', amount: 100.5 })
    .get('/v1/disputes/dsp_4')
    .reply(200, { ...DISPUTE, id: 'dsp_4', status: 'closed', note: CHANNEL_DETAIL });
  for (const id of ['dsp_1', 'dsp_2', 'dsp_3', 'dsp_4']) await assertThrowsChannelError(t, () => channel({ retries: 0 }).queryDispute('test', id));
  // An id the protocol does not allow never becomes a path.
  await assertThrowsChannelError(t, () => channel().queryDispute('test', '../orders/ord_1'));
});

test("submitDisputeEvidence: POSTs the whole evidence set and resolves on the channel's 200 with the dispute", async (t) => {
  const scope = nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' } })
    .post('/v1/disputes/dsp_41aa/evidence', { evidence: { receipt: 'r-1', note: 'shipped' } })
    .reply(503, CHANNEL_DETAIL)
    .post('/v1/disputes/dsp_41aa/evidence', { evidence: { receipt: 'r-1', note: 'shipped' } })
    .reply(200, { ...DISPUTE, status: 'under_review' });
  await t.notThrowsAsync(channel().submitDisputeEvidence('test', 'dsp_41aa', { receipt: 'r-1', note: 'shipped' }));
  t.true(scope.isDone(), 'the same set is sent again after a 503: the channel replaces its evidence with it');
});

test('submitDisputeEvidence: a ruled dispute (409 dispute_closed), a 401, a timeout or an answer about another dispute is channel_error', async (t) => {
  nock(TEST_URL)
    .post('/v1/disputes/dsp_1/evidence')
    .reply(409, { error: { code: 'dispute_closed', message: CHANNEL_DETAIL } })
    .post('/v1/disputes/dsp_2/evidence')
    .reply(401, { error: { code: 'unauthorized', message: CHANNEL_DETAIL } })
    .post('/v1/disputes/dsp_3/evidence')
    .delay(1_000)
    .reply(200, { ...DISPUTE, id: 'dsp_3' })
    .post('/v1/disputes/dsp_4/evidence')
    .reply(200, { ...DISPUTE, id: 'dsp_other' });
  const closed = await assertThrowsChannelError(t, () => channel({ retries: 0 }).submitDisputeEvidence('test', 'dsp_1', { k: 'v' }));
  t.regex(closed.message, /ruled/);
  await assertThrowsChannelError(t, () => channel({ retries: 0 }).submitDisputeEvidence('test', 'dsp_2', { k: 'v' }));
  await assertThrowsChannelError(t, () => channel({ retries: 0, timeoutMs: 100 }).submitDisputeEvidence('test', 'dsp_3', { k: 'v' }));
  await assertThrowsChannelError(t, () => channel({ retries: 0 }).submitDisputeEvidence('test', 'dsp_4', { k: 'v' }));
});

// ---------------------------------------------------------------- refunds

function refundRequest(overrides: Partial<PlaceRefundRequest> = {}): PlaceRefundRequest {
  return {
    mode: 'test',
    reference: 're_QWERTY234567',
    channelOrderId: 'ord_9f2c1d',
    amount: 4000,
    currency: 'THB',
    reason: 'requested_by_customer',
    callbackUrl: 'https://payments.example/channels/rest/callback/test',
    ...overrides,
  };
}

const REFUND_BODY = {
  reference: 're_QWERTY234567',
  order_id: 'ord_9f2c1d',
  amount: 4000,
  currency: 'THB',
  reason: 'requested_by_customer',
  callback_url: 'https://payments.example/channels/rest/callback/test',
};

const REFUND = { id: 'rfd_7c01', order_id: 'ord_9f2c1d', reference: 're_QWERTY234567', status: 'pending', amount: 4000, currency: 'THB' };

test("placeRefund: POST /v1/refunds with the mode's key, the order, integer amount and callback URL answers the channel's refund id", async (t) => {
  const scope = nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' } })
    .post('/v1/refunds', REFUND_BODY)
    .reply(201, { ...REFUND, extra_field: 'ignored' });
  t.deepEqual(await channel().placeRefund(refundRequest()), { outcome: 'placed', channelRefundId: 'rfd_7c01' });
  t.true(scope.isDone());
  const noReason = nock(LIVE_URL, { reqheaders: { authorization: `Bearer ${LIVE_KEY}` } })
    .post('/v1/refunds', (body: Record<string, unknown>) => !('reason' in body) && body.order_id === 'ord_9f2c1d')
    .reply(201, REFUND);
  t.like(await channel().placeRefund(refundRequest({ mode: 'live', reason: undefined })), { outcome: 'placed' });
  t.true(noReason.isDone(), 'a refund without a reason sends none');
});

test('placeRefund: idempotent on the reference: retried with the same body after a 503 and a timeout, the repeat (200) is the same refund', async (t) => {
  const bodies: unknown[] = [];
  const scope = nock(TEST_URL)
    .post('/v1/refunds', (body) => (bodies.push(body), true))
    .reply(503, { error: { code: 'unavailable', message: CHANNEL_DETAIL } })
    .post('/v1/refunds', (body) => (bodies.push(body), true))
    .delay(1_000)
    .reply(201, REFUND)
    .post('/v1/refunds', (body) => (bodies.push(body), true))
    .reply(200, { ...REFUND, status: 'succeeded' });
  const logs: LogLine[] = [];
  t.deepEqual(await channel({}, logs).placeRefund(refundRequest()), { outcome: 'placed', channelRefundId: 'rfd_7c01' });
  t.true(scope.isDone());
  t.deepEqual(bodies, [REFUND_BODY, REFUND_BODY, REFUND_BODY]);
  t.deepEqual(
    logs.map((line) => [line.details.operation, line.details.reason]),
    [
      ['place_refund', 'HTTP 503'],
      ['place_refund', 'timeout'],
    ],
  );
  // A repeat that finds the refund failed since is the decline it recorded.
  nock(TEST_URL)
    .post('/v1/refunds')
    .reply(200, { ...REFUND, status: 'failed', failure_code: 'expired_credential' });
  t.like(await channel().placeRefund(refundRequest()), { outcome: 'refused', failureCode: 'expired_credential' });
});

test("placeRefund: a 402 or 422 decline is refused with the protocol's code; another code, or a 404, is channel_declined", async (t) => {
  nock(TEST_URL)
    .post('/v1/refunds')
    .reply(402, { error: { code: 'insufficient_channel_funds', message: CHANNEL_DETAIL } })
    .post('/v1/refunds')
    .reply(422, { error: { code: 'expired_credential', message: CHANNEL_DETAIL } })
    .post('/v1/refunds')
    .reply(422, { error: { code: 'order_not_paid', message: CHANNEL_DETAIL } })
    .post('/v1/refunds')
    .reply(404, { error: { code: 'order_not_found', message: CHANNEL_DETAIL } })
    .post('/v1/refunds')
    .reply(402, CHANNEL_DETAIL);
  const codes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const result = await channel().placeRefund(refundRequest());
    if (result.outcome !== 'refused') return t.fail('a decline was placed');
    t.false(result.message.includes(CHANNEL_DETAIL), 'the channel body leaked into the message');
    codes.push(result.failureCode);
  }
  t.deepEqual(codes, ['insufficient_channel_funds', 'expired_credential', 'channel_declined', 'channel_declined', 'channel_declined']);
});

test('placeRefund: unreachable, timing out, 5xx or 401 throws channel_error (unavailable) for the reconciler to place again', async (t) => {
  const timeouts = nock(TEST_URL).post('/v1/refunds').times(3).delay(1_000).reply(201, REFUND);
  await assertThrowsChannelError(t, () => channel({ timeoutMs: 100 }).placeRefund(refundRequest()));
  t.true(timeouts.isDone(), 'a timeout is retried: placing is idempotent');
  nock(TEST_URL).post('/v1/refunds').times(3).replyWithError({ code: 'ECONNREFUSED', message: CHANNEL_DETAIL });
  await assertThrowsChannelError(t, () => channel().placeRefund(refundRequest()));
  nock(TEST_URL)
    .post('/v1/refunds')
    .times(3)
    .reply(500, { error: { code: 'internal', message: CHANNEL_DETAIL } });
  await assertThrowsChannelError(t, () => channel().placeRefund(refundRequest()));
  nock(TEST_URL)
    .post('/v1/refunds')
    .reply(401, { error: { code: 'unauthorized', message: CHANNEL_DETAIL } });
  await assertThrowsChannelError(t, () => channel().placeRefund(refundRequest()));
  // An order id the protocol does not allow is never sent.
  await assertThrowsChannelError(t, () => channel().placeRefund(refundRequest({ channelOrderId: '../orders/1' })));
});

test('placeRefund: an answer that is not the refund asked for is channel_error, not retried', async (t) => {
  const malformed: (string | Record<string, unknown>)[] = [
    `{"id": "rfd_7c01", ${CHANNEL_DETAIL}`,
    { ...REFUND, amount: 4000.5 },
    { ...REFUND, amount: 3999 },
    { ...REFUND, currency: 'SGD' },
    { ...REFUND, reference: 're_OTHER' },
    { ...REFUND, order_id: 'ord_other' },
    { ...REFUND, status: 'refunded' },
    { ...REFUND, id: '../refunds/x' },
  ];
  for (const body of malformed) {
    const scope = nock(TEST_URL).post('/v1/refunds').reply(201, body);
    await assertThrowsChannelError(t, () => channel().placeRefund(refundRequest()));
    t.true(scope.isDone());
  }
});

test("queryRefund: GET /v1/refunds/{id} answers the channel's record; a failure code outside the protocol reads as channel_declined", async (t) => {
  const scope = nock(LIVE_URL, { reqheaders: { authorization: `Bearer ${LIVE_KEY}` } })
    .get('/v1/refunds/rfd_7c01')
    .reply(200, { ...REFUND, status: 'succeeded', failure_code: 'ignored' })
    .get('/v1/refunds/rfd_2')
    .reply(200, { ...REFUND, id: 'rfd_2', status: 'failed', failure_code: 'insufficient_channel_funds' })
    .get('/v1/refunds/rfd_3')
    .reply(200, { ...REFUND, id: 'rfd_3', status: 'failed', failure_code: CHANNEL_DETAIL });
  t.deepEqual(await channel().queryRefund('live', 'rfd_7c01'), {
    channelRefundId: 'rfd_7c01',
    channelOrderId: 'ord_9f2c1d',
    reference: 're_QWERTY234567',
    status: 'succeeded',
    amount: 4000,
    currency: 'THB',
  });
  t.like(await channel().queryRefund('live', 'rfd_2'), { status: 'failed', failureCode: 'insufficient_channel_funds' });
  t.like(await channel().queryRefund('live', 'rfd_3'), { status: 'failed', failureCode: 'channel_declined' });
  t.true(scope.isDone());
});

test('queryRefund: retried after a 502; a timeout, a 404, another id, a float amount or an unknown status is channel_error', async (t) => {
  nock(TEST_URL).get('/v1/refunds/rfd_7c01').reply(502, CHANNEL_DETAIL).get('/v1/refunds/rfd_7c01').reply(200, REFUND);
  t.like(await channel().queryRefund('test', 'rfd_7c01'), { status: 'pending' });
  nock(TEST_URL)
    .get('/v1/refunds/rfd_0')
    .delay(1_000)
    .reply(200, { ...REFUND, id: 'rfd_0' })
    .get('/v1/refunds/rfd_1')
    .reply(404, { error: { code: 'refund_not_found', message: CHANNEL_DETAIL } })
    .get('/v1/refunds/rfd_2')
    .reply(200, REFUND)
    .get('/v1/refunds/rfd_3')
    .reply(200, { ...REFUND, id: 'rfd_3', amount: 40.5 })
    .get('/v1/refunds/rfd_4')
    .reply(200, { ...REFUND, id: 'rfd_4', status: 'reversed' });
  await assertThrowsChannelError(t, () => channel({ retries: 0, timeoutMs: 100 }).queryRefund('test', 'rfd_0'));
  for (const id of ['rfd_1', 'rfd_2', 'rfd_3', 'rfd_4']) await assertThrowsChannelError(t, () => channel({ retries: 0 }).queryRefund('test', id));
  await assertThrowsChannelError(t, () => channel().queryRefund('test', '../orders/ord_1'));
});

test('verifyCallback: a signed refund notice names the refund and our reference; forged or malformed ones are refused', (t) => {
  const body = JSON.stringify({ type: 'refund', ...REFUND, status: 'succeeded' });
  t.deepEqual(channel().verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, body) }, body), {
    kind: 'refund',
    channelRefundId: 'rfd_7c01',
    reference: 're_QWERTY234567',
  });
  const forged = t.throws(() => channel().verifyCallback('live', { 'channel-signature': signRestCallback(TEST_SECRET, body) }, body), {
    instanceOf: CoreError,
  });
  t.is(forged?.code, 'invalid_signature');
  for (const bad of [
    { type: 'refund', id: 'rfd_7c01' },
    { type: 'refund', id: '../x', reference: 're_1' },
  ]) {
    const text = JSON.stringify(bad);
    const error = t.throws(() => channel().verifyCallback('test', { 'channel-signature': signRestCallback(TEST_SECRET, text) }, text), {
      instanceOf: CoreError,
    });
    t.is(error?.code, 'invalid_callback');
  }
});

// ---------------------------------------------------------------- statement

test('statement: a page is read with the mode key after the cursor; a chargeback is keyed by its dispute id', async (t) => {
  nock(TEST_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
    .get('/v1/statement')
    .query({ after: 'c-41', limit: '2' })
    .reply(200, {
      lines: [
        { type: 'payment', id: 'ord_1', reference: 'att_1', amount: 10050, currency: 'THB', occurred_at: '2030-01-31T09:31:12.000Z' },
        { type: 'chargeback', id: 'dsp_1', reference: 'att_1', amount: 10050, currency: 'THB', occurred_at: '2030-02-01T00:00:00Z', extra: 'ignored' },
      ],
      next_cursor: 'c-43',
      has_more: true,
      as_of: '2030-02-02T00:00:00.000Z',
    });
  t.deepEqual(await channel().statement('test', { after: 'c-41', limit: 2 }), {
    lines: [
      { kind: 'payment', reference: 'att_1', channelId: 'ord_1', amount: 10050, currency: 'THB', occurredAt: new Date('2030-01-31T09:31:12.000Z') },
      { kind: 'chargeback', reference: 'dsp_1', channelId: 'dsp_1', amount: 10050, currency: 'THB', occurredAt: new Date('2030-02-01T00:00:00Z') },
    ],
    next: 'c-43',
    hasMore: true,
    asOf: new Date('2030-02-02T00:00:00.000Z'),
  });
});

test('statement: a page that breaks the protocol, or a status but 200, throws channel_error naming the field, never the value', async (t) => {
  const line = { type: 'refund', id: 'rfd_1', reference: 're_1', amount: 500, currency: 'THB', occurred_at: '2030-01-31T09:31:12.000Z' };
  const page = { lines: [line], next_cursor: 'c-1', has_more: false, as_of: '2030-02-02T00:00:00.000Z' };
  const broken: Array<[string, unknown]> = [
    ['float amount', { ...page, lines: [{ ...line, amount: 5.5 }] }],
    ['zero amount', { ...page, lines: [{ ...line, amount: 0 }] }],
    ['unknown type', { ...page, lines: [{ ...line, type: CHANNEL_DETAIL }] }],
    ['more lines than asked', { ...page, lines: [line, line, line] }],
    ['no cursor', { ...page, next_cursor: '' }],
    ['no as_of', { ...page, as_of: undefined }],
  ];
  for (const [what, body] of broken) {
    nock(TEST_URL).get('/v1/statement').query(true).reply(200, JSON.stringify(body));
    const error = await assertThrowsChannelError(t, () => channel().statement('test', { limit: 2 }));
    t.regex(error.message, /statement broke the protocol/, what);
  }
  nock(TEST_URL)
    .get('/v1/statement')
    .query(true)
    .reply(400, { error: { code: 'invalid_cursor', message: CHANNEL_DETAIL } });
  await assertThrowsChannelError(t, () => channel().statement('test', { after: 'x', limit: 2 }));
});
