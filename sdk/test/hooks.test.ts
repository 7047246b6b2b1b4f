import test from 'ava';
import { ApiConnectionError, NotFoundError, Payments, RequestAbortedError, type RequestEvent, type ResponseEvent } from '@payments/sdk';
import { apiError, intent, KEY, withApi } from './helpers/fake-api';

/*
 * The escape hatches around the typed methods: request hooks, lastResponse, per-call signal and
 * headers, and rawRequest for routes the SDK lacks.
 */

const created = { amount: 100, currency: 'THB', merchant_order_id: 'o-1' };

test('the request and response hooks see every try: a dropped connection, a 500 and the answer, each with its attempt and key', async (t) => {
  await withApi(
    (_req, index) => (index === 0 ? 'reset' : index === 1 ? { status: 500, body: apiError('api_error') } : { status: 201, body: intent('pi_1') }),
    async (payments, api) => {
      const requests: RequestEvent[] = [];
      const responses: ResponseEvent[] = [];
      const onRequest = (event: RequestEvent) => requests.push(event);
      const onResponse = (event: ResponseEvent) => responses.push(event);
      payments.on('request', onRequest).on('response', onResponse);
      payments.on('response', () => {
        throw new Error('a broken logger');
      });
      t.is((await payments.paymentIntents.create(created, { idempotencyKey: 'k-hooks' })).id, 'pi_1');
      t.deepEqual(
        requests.map((event) => [event.method, event.path, event.attempt, event.idempotencyKey]),
        [
          ['POST', '/v1/payment_intents', 1, 'k-hooks'],
          ['POST', '/v1/payment_intents', 2, 'k-hooks'],
          ['POST', '/v1/payment_intents', 3, 'k-hooks'],
        ],
      );
      t.deepEqual(
        responses.map((event) => [event.attempt, event.status, event.requestId, event.error?.code, event.willRetry]),
        [
          [1, undefined, undefined, 'connection_error', true],
          [2, 500, 'req_2', undefined, true],
          [3, 201, 'req_3', undefined, false],
        ],
      );
      t.true(responses[0]?.error instanceof ApiConnectionError);
      t.true(responses.every((event) => Number.isInteger(event.elapsed) && event.elapsed >= 0 && event.requestEndTime >= event.requestStartTime));
      t.false(JSON.stringify([requests, responses]).includes(KEY), 'the hooks never see the API key');

      payments.off('request', onRequest).off('response', onResponse);
      await payments.paymentIntents.retrieve('pi_1');
      t.is(requests.length, 3);
      t.is(api.received.length, 4);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a JavaScript caller's misspelt event name
      t.throws(() => payments.on('answer' as 'response', onResponse), { instanceOf: TypeError });
    },
  );
});

test('lastResponse rides on every answer and error without being enumerable', async (t) => {
  await withApi(
    (req) => {
      if (req.url.pathname === '/v1/payment_intents/pi_missing') return { status: 404, body: apiError('resource_not_found') };
      if (req.url.pathname === '/v1/payment_intents' && req.method === 'GET')
        return { status: 200, body: { object: 'list', data: [intent('pi_1')], has_more: false } };
      return { status: 201, body: intent('pi_1'), headers: { 'x-extra': 'yes', 'idempotent-replayed': 'true' } };
    },
    async (payments) => {
      const pi = await payments.paymentIntents.create(created, { idempotencyKey: 'k-last' });
      t.like(pi.lastResponse, { statusCode: 201, requestId: 'req_1', idempotencyKey: 'k-last', attempts: 1 });
      t.is(pi.lastResponse.headers['x-extra'], 'yes');
      t.is(pi.lastResponse.headers['idempotent-replayed'], 'true');
      t.false(Object.keys(pi).includes('lastResponse'));
      t.deepEqual(JSON.parse(JSON.stringify(pi)), intent('pi_1'));
      t.false('lastResponse' in { ...pi });

      const page = await payments.paymentIntents.list();
      t.is(page.lastResponse.statusCode, 200);
      t.is(page.lastResponse.requestId, 'req_2');

      const error = await t.throwsAsync(payments.paymentIntents.retrieve('pi_missing'), { instanceOf: NotFoundError });
      t.like(error?.lastResponse, { statusCode: 404, requestId: 'req_3', attempts: 1 });
      t.false(Object.keys(error ?? {}).includes('lastResponse'));
    },
  );
});

test('an aborted signal ends the call at once: before sending, while waiting for the answer, or between retries', async (t) => {
  await withApi(
    (req) => (req.url.pathname === '/v1/payment_intents/pi_hang' ? 'hang' : { status: 503, body: apiError('unavailable') }),
    async (payments, api) => {
      const before = new AbortController();
      before.abort(new Error('user left'));
      const early = await t.throwsAsync(payments.balance.retrieve({ signal: before.signal }), { instanceOf: RequestAbortedError });
      t.is(early?.code, 'request_aborted');
      t.is(early?.cause instanceof Error ? early.cause.message : undefined, 'user left');
      t.is(api.received.length, 0, 'nothing was sent');

      const waiting = new AbortController();
      const started = Date.now();
      setTimeout(() => waiting.abort(), 100);
      const hung = await t.throwsAsync(payments.paymentIntents.retrieve('pi_hang', { signal: waiting.signal, timeout: 10_000 }), {
        instanceOf: RequestAbortedError,
      });
      t.regex(hung?.message ?? '', /GET \/v1\/payment_intents\/pi_hang was aborted/);
      t.true(Date.now() - started < 2_000, 'not the 10 s timeout');

      const between = new AbortController();
      const slow = new Payments(KEY, { baseUrl: api.baseUrl, backoff: { initialDelayMs: 10_000, maxDelayMs: 10_000 } });
      const responses: ResponseEvent[] = [];
      slow.on('response', (event) => responses.push(event));
      const call = slow.balance.retrieve({ signal: between.signal });
      while (responses.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      between.abort();
      await t.throwsAsync(call, { instanceOf: RequestAbortedError });
      t.is(api.received.filter((r) => r.url.pathname === '/v1/balance').length, 1, 'no retry after the abort');
    },
  );
});

test('per-call headers are sent; the key and the Idempotency-Key cannot be set through them', async (t) => {
  await withApi(
    () => ({ status: 200, body: intent('pi_1') }),
    async (payments, api) => {
      await payments.paymentIntents.retrieve('pi_1', { headers: { 'X-Trace-Id': 'trace-1' } });
      t.is(api.received[0]?.headers['x-trace-id'], 'trace-1');
      t.is(api.received[0]?.headers.authorization, `Bearer ${KEY}`);
      await t.throwsAsync(payments.paymentIntents.retrieve('pi_1', { headers: { Authorization: 'Bearer sk_test_other' } }), { instanceOf: TypeError });
      await t.throwsAsync(payments.paymentIntents.cancel('pi_1', { headers: { 'idempotency-key': 'k' } }), {
        instanceOf: TypeError,
        message: /idempotencyKey option/,
      });
      t.is(api.received.length, 1);
    },
  );
});

test('rawRequest calls any API path with the key, query, JSON body, Idempotency-Key, retries and error classes', async (t) => {
  await withApi(
    (req, index) => {
      if (req.url.pathname === '/v1/nothing') return { status: 404, body: apiError('resource_not_found') };
      if (req.url.pathname === '/v1/flaky' && index === 2) return { status: 502, body: apiError('bad_gateway') };
      return { status: 200, body: { object: 'thing', method: req.method, echo: req.body === '' ? null : (JSON.parse(req.body) as unknown) } };
    },
    async (payments, api) => {
      const got = await payments.rawRequest('GET', '/v1/things', { query: { limit: 2, since: new Date('2026-09-01T00:00:00Z') } });
      t.deepEqual({ ...got }, { object: 'thing', method: 'GET', echo: null });
      t.is(got.lastResponse.statusCode, 200);
      t.is(api.received[0]?.url.search, '?limit=2&since=2026-09-01T00%3A00%3A00.000Z');
      t.is(api.received[0]?.headers.authorization, `Bearer ${KEY}`);
      t.is(api.received[0]?.headers['idempotency-key'], undefined);

      const posted = await payments.rawRequest<{ echo: unknown }>('PATCH', '/v1/things/th_1', {
        body: { name: 'x' },
        idempotencyKey: 'k-raw',
        headers: { 'x-extra': '1' },
      });
      t.deepEqual(posted.echo, { name: 'x' });
      t.is(api.received[1]?.method, 'PATCH');
      t.is(api.received[1]?.headers['idempotency-key'], 'k-raw');
      t.is(api.received[1]?.headers['content-type'], 'application/json');
      t.is(api.received[1]?.headers['x-extra'], '1');

      t.is((await payments.rawRequest('DELETE', '/v1/flaky')).method, 'DELETE');
      t.is(api.received.length, 4, 'the 502 was retried');
      const missing = await t.throwsAsync(payments.rawRequest('GET', '/v1/nothing'), { instanceOf: NotFoundError });
      t.is(missing?.lastResponse?.statusCode, 404);
    },
  );
});

test('rawRequest keeps to the API: no other host, no path out of the base URL, no unknown method', (t) => {
  const payments = new Payments(KEY, { baseUrl: 'http://127.0.0.1:1/api' });
  for (const path of ['v1/balance', '//evil.example/v1/balance', '/../../outside', 'https://evil.example/v1/balance', '']) {
    t.throws(() => void payments.rawRequest('GET', path), { instanceOf: TypeError, message: /API path/ }, path);
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a JavaScript caller's method the API does not take
  t.throws(() => void payments.rawRequest('TRACE' as 'GET', '/v1/balance'), { instanceOf: TypeError });
});

test('rawRequest refuses a GET with a body before sending', async (t) => {
  await withApi(
    () => ({ status: 200, body: {} }),
    async (payments, api) => {
      await t.throwsAsync(payments.rawRequest('GET', '/v1/balance', { body: {} }), { instanceOf: TypeError, message: /GET request has no body/ });
      t.is(api.received.length, 0);
    },
  );
});
