import test from 'ava';
import {
  ApiConnectionError,
  ApiError,
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PaymentFailedError,
  Payments,
  PermissionError,
  RateLimitError,
  type PaymentsError,
} from '@payments/sdk';
import { apiError, FAST_BACKOFF, fakeApi, intent, KEY, withApi, type FakeApi, type Reply } from './helpers/fake-api';

const created = { amount: 100, currency: 'THB', merchant_order_id: 'o-1' };

test('a POST carries the key, the version and a generated Idempotency-Key; a GET carries no key', async (t) => {
  await withApi(
    (req) => ({ status: req.method === 'POST' ? 201 : 200, body: intent('pi_1') }),
    async (payments, api) => {
      await payments.paymentIntents.create(created);
      await payments.paymentIntents.retrieve('pi_1');
      const [post, get] = api.received;
      t.is(post?.headers.authorization, `Bearer ${KEY}`);
      t.is(post?.headers['api-version'], '2026-09-01');
      t.regex(String(post?.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
      t.is(post?.headers['content-type'], 'application/json');
      t.deepEqual(JSON.parse(post?.body ?? ''), created);
      t.is(get?.url.pathname, '/v1/payment_intents/pi_1');
      t.is(get?.headers['idempotency-key'], undefined);
    },
  );
});

test('a given Idempotency-Key and Api-Version are sent as given; apiVersion null sends none', async (t) => {
  await withApi(
    () => ({ status: 200, body: intent('pi_1', 'canceled') }),
    async (payments, api) => {
      await payments.paymentIntents.cancel('pi_1', { idempotencyKey: 'my-key', apiVersion: '2026-09-01' });
      t.is(api.received[0]?.headers['idempotency-key'], 'my-key');
      t.is(api.received[0]?.url.pathname, '/v1/payment_intents/pi_1/cancel');
      const unpinned = new Payments(KEY, { baseUrl: api.baseUrl, apiVersion: null });
      await unpinned.paymentIntents.retrieve('pi_1');
      t.is(api.received[1]?.headers['api-version'], undefined);
    },
  );
});

test('a reset connection is retried with the same Idempotency-Key', async (t) => {
  await withApi(
    (_req, index) => (index < 2 ? 'reset' : { status: 201, body: intent('pi_1') }),
    async (payments, api) => {
      const pi = await payments.paymentIntents.create(created);
      t.is(pi.id, 'pi_1');
      t.is(api.received.length, 3);
      t.is(new Set(api.received.map((r) => r.headers['idempotency-key'])).size, 1);
    },
  );
});

test('409 idempotency_key_in_use is retried with the same key until the first request finished', async (t) => {
  await withApi(
    (_req, index) =>
      index === 0
        ? { status: 409, body: apiError('idempotency_key_in_use') }
        : { status: 201, body: intent('pi_1'), headers: { 'idempotent-replayed': 'true' } },
    async (payments, api) => {
      const seen: boolean[] = [];
      const client = new Payments(KEY, { baseUrl: api.baseUrl, backoff: FAST_BACKOFF, onResponse: (info) => seen.push(info.replayed) });
      t.is((await client.paymentIntents.create(created, { idempotencyKey: 'k-1' })).id, 'pi_1');
      t.deepEqual(
        api.received.map((r) => r.headers['idempotency-key']),
        ['k-1', 'k-1'],
      );
      t.deepEqual(seen, [true]);
      t.truthy(payments);
    },
  );
});

test('429 waits what Retry-After asks before retrying', async (t) => {
  await withApi(
    (_req, index) =>
      index === 0
        ? { status: 429, body: apiError('rate_limited'), headers: { 'retry-after': '1' } }
        : { status: 200, body: { object: 'balance', available: [], pending: [], dispute_hold: [] } },
    async (payments, api) => {
      const started = Date.now();
      await payments.balance.retrieve();
      t.true(Date.now() - started >= 950, `retried after ${Date.now() - started} ms`);
      t.is(api.received.length, 2);
    },
  );
});

test('5xx is retried up to maxNetworkRetries, then thrown as ApiError', async (t) => {
  await withApi(
    () => ({ status: 500, body: apiError('api_error', 'Something went wrong') }),
    async (payments, api) => {
      const error = await t.throwsAsync(payments.settlements.create({ idempotencyKey: 'st-1' }), { instanceOf: ApiError });
      t.is(error?.statusCode, 500);
      t.is(error?.code, 'api_error');
      t.is(error?.requestId, 'req_body');
      t.is(api.received.length, 3, 'one try and two retries');
      t.deepEqual([...new Set(api.received.map((r) => r.headers['idempotency-key']))], ['st-1']);
    },
  );
  await withApi(
    (_req, index) => (index < 2 ? { status: 503, body: apiError('unavailable') } : { status: 200, body: { object: 'list', data: [], has_more: false } }),
    async (payments, api) => {
      t.deepEqual((await payments.events.list()).data, []);
      t.is(api.received.length, 3);
    },
  );
});

test('a conflict other than a key in use is not retried, and carries code, status, request id and param', async (t) => {
  await withApi(
    () => ({ status: 409, body: apiError('merchant_order_id_taken', 'That order id is used.', 'merchant_order_id') }),
    async (payments, api) => {
      const error = await t.throwsAsync(payments.paymentIntents.create(created), { instanceOf: ConflictError });
      t.like(error, { code: 'merchant_order_id_taken', statusCode: 409, requestId: 'req_body', param: 'merchant_order_id', message: 'That order id is used.' });
      t.is(api.received.length, 1);
    },
  );
});

test('each error status maps to its class', async (t) => {
  const cases: [number, typeof PaymentsError][] = [
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [402, PaymentFailedError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, InvalidRequestError],
    [422, IdempotencyError],
  ];
  await withApi(
    (req) => ({ status: Number(req.url.searchParams.get('status')), body: apiError(`code_${req.url.searchParams.get('status')}`) }),
    async (payments) => {
      for (const [status, errorClass] of cases) {
        // The status to answer rides in a query parameter the fake reads; FxQuoteParams passes it through.
        const params = { from: 'USD', to: 'THB', status };
        const error = await t.throwsAsync(payments.fx.quotes.retrieve(params), { instanceOf: errorClass });
        t.is(error?.statusCode, status);
        t.is(error?.code, `code_${status}`);
      }
    },
  );
  await withApi(
    () => ({ status: 429, body: apiError('rate_limited'), headers: { 'retry-after': '120' } }),
    async (payments, api) => {
      // Longer than the SDK waits: thrown at once with what the API asked for.
      const error = await t.throwsAsync(payments.balance.retrieve(), { instanceOf: RateLimitError });
      t.is(error?.retryAfter, 120);
      t.is(api.received.length, 1);
    },
  );
});

test('no answer within the timeout is an ApiConnectionError, retried like a connection error', async (t) => {
  await withApi(
    () => 'hang',
    async (payments, api) => {
      const started = Date.now();
      // 1 s, not less: on a loaded machine a retry given a few hundred ms may be given up before the server reads it.
      const error = await t.throwsAsync(payments.paymentIntents.retrieve('pi_1', { timeout: 1000, maxNetworkRetries: 1 }), { instanceOf: ApiConnectionError });
      t.is(error?.code, 'timeout');
      t.regex(error?.message ?? '', /within 1000 ms/);
      t.true(Date.now() - started < 8000);
      // On a busy machine the server may log the retry's arrival a moment after the client gave up on it.
      for (let waited = 0; api.received.length < 2 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      t.is(api.received.length, 2);
    },
  );
});

test('a refused connection is an ApiConnectionError after its retries', async (t) => {
  const payments = new Payments(KEY, { baseUrl: 'http://127.0.0.1:1', maxNetworkRetries: 1, backoff: FAST_BACKOFF });
  const error = await t.throwsAsync(payments.balance.retrieve(), { instanceOf: ApiConnectionError });
  t.is(error?.code, 'connection_error');
  t.false((error?.message ?? '').includes(KEY));
});

test('lists page on demand: for await, autoPagingToArray and one awaited page', async (t) => {
  const all = Array.from({ length: 45 }, (_, i) => intent(`pi_${String(45 - i).padStart(3, '0')}`));
  const page = (req: FakeApi['received'][number]): Reply => {
    const limit = Number(req.url.searchParams.get('limit') ?? 20);
    const after = req.url.searchParams.get('starting_after');
    const start = after ? all.findIndex((pi) => pi.id === after) + 1 : 0;
    return { status: 200, body: { object: 'list', data: all.slice(start, start + limit), has_more: start + limit < all.length } };
  };
  await withApi(page, async (payments, api) => {
    const ids: string[] = [];
    for await (const pi of payments.paymentIntents.list({ status: 'created', limit: 20 })) ids.push(pi.id);
    t.deepEqual(
      ids,
      all.map((pi) => pi.id),
    );
    t.deepEqual(
      api.received.map((r) => r.url.searchParams.get('starting_after')),
      [null, 'pi_026', 'pi_006'],
    );
    t.true(api.received.every((r) => r.url.searchParams.get('status') === 'created'));

    api.received.length = 0;
    const first25 = await payments.paymentIntents.list({ limit: 20 }).autoPagingToArray({ limit: 25 });
    t.is(first25.length, 25);
    t.is(api.received.length, 2);

    api.received.length = 0;
    const one = await payments.paymentIntents.list({ limit: 5, 'created[gte]': new Date('2026-09-01T00:00:00Z') });
    t.is(one.data.length, 5);
    t.true(one.has_more);
    t.is(api.received[0]?.url.searchParams.get('created[gte]'), '2026-09-01T00:00:00.000Z');

    const visited: string[] = [];
    await payments.paymentIntents.list({ limit: 10 }).autoPagingEach((pi) => {
      visited.push(pi.id);
      return visited.length < 12;
    });
    t.is(visited.length, 12);
    await t.throwsAsync(payments.paymentIntents.list().autoPagingToArray({ limit: 0 }), { instanceOf: RangeError });
  });
});

test('balance transactions: the filters reach the query, every page is read in turn, and one line is retrieved', async (t) => {
  const line = (seq: number) => ({
    id: `txn_${seq}`,
    object: 'balance_transaction',
    type: 'payment',
    amount: 10_000,
    fee: 165,
    net: 9_835,
    currency: 'THB',
    moves: { pending: 9_835, available: 0, dispute_hold: 0 },
    source: 'pi_1',
    payment_intent: 'pi_1',
    created: '2026-09-01T00:00:00Z',
  });
  const all = Array.from({ length: 7 }, (_, i) => line(7 - i));
  await withApi(
    (req): Reply => {
      if (req.url.pathname === '/v1/balance_transactions/txn_3') return { status: 200, body: line(3) };
      const limit = Number(req.url.searchParams.get('limit') ?? 20);
      const after = req.url.searchParams.get('starting_after');
      const start = after ? all.findIndex((one) => one.id === after) + 1 : 0;
      return { status: 200, body: { object: 'list', data: all.slice(start, start + limit), has_more: start + limit < all.length } };
    },
    async (payments, api) => {
      const lines = await payments.balanceTransactions
        .list({ limit: 3, type: 'payment', settlement: 'st_A', 'available_on[lte]': new Date('2026-09-30T00:00:00Z'), 'created[gte]': '2026-09-01' })
        .autoPagingToArray({ limit: 100 });
      t.deepEqual(
        lines.map((one) => one.id),
        all.map((one) => one.id),
      );
      t.deepEqual(
        api.received.map((r) => r.url.searchParams.get('starting_after')),
        [null, 'txn_5', 'txn_2'],
      );
      for (const r of api.received) {
        t.like(Object.fromEntries(r.url.searchParams), {
          type: 'payment',
          settlement: 'st_A',
          'available_on[lte]': '2026-09-30T00:00:00.000Z',
          'created[gte]': '2026-09-01',
        });
      }
      const one = await payments.balanceTransactions.retrieve('txn_3');
      t.is(one.net, one.amount - one.fee);
      t.is(api.received.at(-1)?.url.pathname, '/v1/balance_transactions/txn_3');
    },
  );
});

test('exports: the filters reach the query, the answer is the CSV text with the name the service gave it; errors are thrown as JSON ones', async (t) => {
  const csv = 'id,amount\r\ntxn_2,-1.50\r\n';
  await withApi(
    (req): Reply => {
      if (req.url.searchParams.get('type') === 'adjustment') return { status: 400, body: apiError('invalid_parameter', 'type is not a line type', 'type') };
      if (req.url.pathname === '/v1/exports/settlements.csv') return { status: 200, rawBody: 'not csv' };
      const name = req.url.pathname.slice('/v1/exports/'.length, -'.csv'.length);
      return {
        status: 200,
        rawBody: req.url.searchParams.has('settlement') ? `\uFEFF${csv}` : csv,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}-test-2026-11-28.csv"` },
      };
    },
    async (payments, api) => {
      const lines = await payments.exports.balanceTransactions({ settlement: 'st_A', 'created[lte]': new Date('2026-11-30T00:00:00Z'), type: 'release' });
      t.deepEqual({ ...lines }, { filename: 'balance_transactions-test-2026-11-28.csv', text: csv }, 'a byte order mark is not part of the text');
      t.is(lines.lastResponse.statusCode, 200);
      const received = api.received[0];
      t.is(received?.url.pathname, '/v1/exports/balance_transactions.csv');
      t.deepEqual(Object.fromEntries(received?.url.searchParams ?? []), { settlement: 'st_A', 'created[lte]': '2026-11-30T00:00:00.000Z', type: 'release' });
      t.is(received?.headers.accept, 'text/csv, application/json');
      const intents = await payments.exports.paymentIntents({ status: 'succeeded', 'created[gte]': '2026-11-01' });
      t.is(intents.filename, 'payment_intents-test-2026-11-28.csv');
      t.is(api.received[1]?.url.search, '?status=succeeded&created%5Bgte%5D=2026-11-01');
      const refused = await t.throwsAsync(payments.exports.balanceTransactions({ type: 'adjustment' }), { instanceOf: InvalidRequestError });
      t.is(refused?.param, 'type');
      await t.throwsAsync(payments.exports.settlements(), { instanceOf: ApiError, message: /not CSV/ });
    },
  );
});

test('every resource calls its route', async (t) => {
  await withApi(
    (req) => ({
      status: 200,
      body: req.url.pathname.startsWith('/v1/events/') ? { id: 'evt_A', type: 'payment_intent.canceled' } : { object: 'list', data: [], has_more: false },
    }),
    async (payments, api) => {
      await payments.paymentIntents.attempts.create('pi_1', { payment_method: 'promptpay' });
      await payments.paymentIntents.attempts.list('pi_1');
      await payments.disputes.list({ status: 'opened' });
      await payments.disputes.retrieve('dp_1');
      await payments.disputes.submitEvidence('dp_1', { evidence: { receipt: 'r' } });
      await payments.settlements.list();
      await payments.settlements.retrieve('st_A');
      await payments.fx.quotes.retrieve({ from: 'USD', to: 'THB', amount: 100 });
      await payments.webhookPublicKeys.list();
      await payments.testHelpers.paymentIntents.simulate('pi_1', { outcome: 'succeeded' });
      await payments.testHelpers.paymentIntents.advance('pi_1', { clock: 'expiry' });
      await payments.refunds.create({ payment_intent: 'pi_1', amount: 500, reason: 'duplicate' });
      await payments.refunds.retrieve('re_A');
      await payments.refunds.list({ payment_intent: 'pi_1', status: 'pending' });
      await payments.testHelpers.refunds.simulate('re_A', { outcome: 'failed', failure_code: 'channel_declined' });
      t.is((await payments.events.retrieve('evt_A'))?.type, 'payment_intent.canceled');
      t.deepEqual(
        api.received.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`),
        [
          'POST /v1/payment_intents/pi_1/attempts',
          'GET /v1/payment_intents/pi_1/attempts',
          'GET /v1/disputes?status=opened',
          'GET /v1/disputes/dp_1',
          'POST /v1/disputes/dp_1/evidence',
          'GET /v1/settlements',
          'GET /v1/settlements/st_A',
          'GET /v1/fx/quotes?from=USD&to=THB&amount=100',
          'GET /v1/webhook_public_keys',
          'POST /v1/test/payment_intents/pi_1/simulate',
          'POST /v1/test/payment_intents/pi_1/advance',
          'POST /v1/refunds',
          'GET /v1/refunds/re_A',
          'GET /v1/refunds?payment_intent=pi_1&status=pending',
          'POST /v1/test/refunds/re_A/simulate',
          'GET /v1/events/evt_A',
        ],
      );
      t.deepEqual(JSON.parse(api.received[4]?.body ?? ''), { evidence: { receipt: 'r' } });
      t.deepEqual(JSON.parse(api.received[11]?.body ?? ''), { payment_intent: 'pi_1', amount: 500, reason: 'duplicate' });
      t.regex(String(api.received[11]?.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
      t.deepEqual(JSON.parse(api.received[14]?.body ?? ''), { outcome: 'failed', failure_code: 'channel_declined' });
    },
  );
});

test('events.retrieve reads GET /v1/events/{id}: the body a delivery carried, undefined when the key sees no such event, other errors thrown', async (t) => {
  const event = { id: 'evt_A', type: 'payment_intent.succeeded', created: '2026-09-01T00:00:00Z', livemode: false, data: { id: 'pi_1', status: 'succeeded' } };
  await withApi(
    (req) => {
      if (req.url.pathname === '/v1/events/evt_A') return { status: 200, body: event };
      if (req.url.pathname === '/v1/events/evt_BROKEN') return { status: 500, body: apiError('api_error') };
      return { status: 404, body: apiError('resource_not_found', 'No such event.') };
    },
    async (payments, api) => {
      const found = await payments.events.retrieve('evt_A');
      t.deepEqual(JSON.parse(JSON.stringify(found)), event);
      t.is(found?.lastResponse.statusCode, 200);
      t.is(await payments.events.retrieve('evt_NOPE'), undefined);
      await t.throwsAsync(payments.events.retrieve('evt_BROKEN', { maxNetworkRetries: 0 }), { instanceOf: ApiError });
      await payments.events.retrieve('evt/../x');
      t.deepEqual(
        api.received.map((r) => `${r.method} ${r.url.pathname}`),
        ['GET /v1/events/evt_A', 'GET /v1/events/evt_NOPE', 'GET /v1/events/evt_BROKEN', 'GET /v1/events/evt%2F..%2Fx'],
      );
    },
  );
});

test('an id cannot reach another route, and a bad API key is refused without being echoed', (t) => {
  const error = t.throws(() => new Payments('pk_oops_secret_value'), { instanceOf: TypeError });
  t.false(error?.message.includes('secret_value'));
  t.throws(() => new Payments(KEY, { timeout: -1 }), { instanceOf: RangeError });
});

test('a restricted key (rk_test_, rk_live_) is a key like a secret one; a refusal of what it may not reach is a PermissionError naming the permission', async (t) => {
  for (const key of ['rk_test_0123456789abcdefghijklmnop', 'rk_live_0123456789abcdefghijklmnop']) t.notThrows(() => new Payments(key));
  for (const key of ['rk_prod_0123456789abcdefghijklmnop', 'xk_test_0123456789abcdefghijklmnop']) t.throws(() => new Payments(key), { instanceOf: TypeError });
  const restricted = 'rk_test_0123456789abcdefghijklmnop';
  const api = await fakeApi(() => ({
    status: 403,
    body: apiError('insufficient_permissions', 'This key lacks the permission refunds:write.', 'refunds:write'),
  }));
  try {
    const payments = new Payments(restricted, { baseUrl: api.baseUrl, backoff: FAST_BACKOFF });
    const error = await t.throwsAsync(payments.refunds.create({ payment_intent: 'pi_1' }), { instanceOf: PermissionError });
    t.like(error, { code: 'insufficient_permissions', statusCode: 403, param: 'refunds:write', message: 'This key lacks the permission refunds:write.' });
    t.is(api.received.length, 1, 'a 403 is not retried');
    t.is(api.received[0]?.headers.authorization, `Bearer ${restricted}`);
  } finally {
    await api.close();
  }
});

test('a balance past 2^53 − 1 is read exactly, as a BigInt; smaller amounts stay numbers', async (t) => {
  // 3 × (2^53 − 2): JSON.parse would make it 27021597764222968.
  const rawBody =
    '{"object":"balance","available":[{"amount":-1500,"currency":"THB"}],"pending":[{"amount":27021597764222970,"currency":"THB"}],"dispute_hold":[{"amount":0,"currency":"THB"}],"note":"27021597764222970 in a string stays a string"}';
  await withApi(
    () => ({ status: 200, rawBody }),
    async (payments) => {
      const balance = await payments.balance.retrieve();
      t.deepEqual(balance.pending, [{ amount: 27021597764222970n, currency: 'THB' }]);
      t.deepEqual(balance.available, [{ amount: -1500, currency: 'THB' }]);
      t.like(balance, { note: '27021597764222970 in a string stays a string' });
    },
  );
});
