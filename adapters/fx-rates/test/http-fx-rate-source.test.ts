import test, { type ExecutionContext } from 'ava';
import nock from 'nock';
import { CoreError } from '@payments/core';
import { HttpFxRateSource } from '../src';

const FEED = 'https://rates.example.test';
const GOOD = { base: 'USD', as_of: '2026-09-01T00:00:00Z', rates: { THB: '35.12', JPY: '150', KWD: '0.3056', SGD: '1.274' } };

test.before(() => nock.disableNetConnect());
test.afterEach.always(() => nock.cleanAll());
test.after.always(() => nock.enableNetConnect());

function clockAt(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => (now += ms) };
}

/** Asserts a 503 api_error whose logged cause says why (a missed nock interceptor would say otherwise). */
async function unavailable(t: ExecutionContext, promise: Promise<unknown>, why: RegExp): Promise<CoreError> {
  const error = await t.throwsAsync(promise, { instanceOf: CoreError });
  t.like(error, { code: 'api_error', category: 'unavailable' });
  t.regex(causeMessage(error), why);
  return error;
}

/** The logged cause's message ('undefined' when there is none). */
const causeMessage = (error: Error): string => String(error.cause instanceof Error ? error.cause.message : undefined);

test.serial('asks GET {url}?base=USD and serves direct and cross rates as decimal strings', async (t) => {
  const scope = nock(FEED, { reqheaders: { accept: 'application/json' } })
    .get('/v1/rates')
    .query({ base: 'USD' })
    .reply(200, GOOD);
  const source = new HttpFxRateSource({ url: `${FEED}/v1/rates` });
  t.is(await source.midRate('USD', 'THB'), '35.12');
  t.is(await source.midRate('THB', 'USD'), '0.028473804100227790433');
  t.is(await source.midRate('JPY', 'THB'), '0.23413333333333333333');
  t.is(await source.midRate('SGD', 'SGD'), '1');
  t.true(scope.isDone());
});

test.serial('keeps a query the URL already has', async (t) => {
  const scope = nock(FEED).get('/rates').query({ key: 'abc', base: 'USD' }).reply(200, GOOD);
  t.is(await new HttpFxRateSource({ url: `${FEED}/rates?key=abc` }).midRate('USD', 'JPY'), '150');
  t.true(scope.isDone());
});

test.serial('one table serves every request for cacheTtlMs, then the next request fetches again', async (t) => {
  const clock = clockAt();
  const first = nock(FEED).get('/rates').query(true).reply(200, GOOD);
  const source = new HttpFxRateSource({ url: `${FEED}/rates`, cacheTtlMs: 60_000, now: clock.now });
  t.is(await source.midRate('USD', 'THB'), '35.12');
  clock.advance(59_999);
  t.is(await source.midRate('USD', 'THB'), '35.12');
  t.true(first.isDone());
  const second = nock(FEED)
    .get('/rates')
    .query(true)
    .reply(200, { ...GOOD, rates: { ...GOOD.rates, THB: '36' } });
  clock.advance(1);
  t.is(await source.midRate('USD', 'THB'), '36');
  t.true(second.isDone());
});

test.serial('concurrent callers share one request', async (t) => {
  const scope = nock(FEED).get('/rates').query(true).delay(50).reply(200, GOOD);
  const source = new HttpFxRateSource({ url: `${FEED}/rates` });
  const rates = await Promise.all([source.midRate('USD', 'THB'), source.midRate('USD', 'JPY'), source.midRate('THB', 'SGD')]);
  t.deepEqual(rates.slice(0, 2), ['35.12', '150']);
  t.true(scope.isDone());
  t.deepEqual(nock.pendingMocks(), []);
});

test.serial('a currency the feed does not quote is unsupported_currency_pair', async (t) => {
  nock(FEED).get('/rates').query(true).reply(200, GOOD);
  const source = new HttpFxRateSource({ url: `${FEED}/rates` });
  t.like(await t.throwsAsync(source.midRate('USD', 'EUR')), { code: 'unsupported_currency_pair', param: 'to' });
  t.like(await t.throwsAsync(source.midRate('EUR', 'USD')), { code: 'unsupported_currency_pair', param: 'from' });
});

test.serial('a 5xx is 503 api_error that carries nothing of the body', async (t) => {
  nock(FEED).get('/rates').query(true).reply(502, 'upstream secret token sk_live_leak', { 'content-type': 'text/plain' });
  const error = await unavailable(t, new HttpFxRateSource({ url: `${FEED}/rates` }).midRate('USD', 'THB'), /HTTP 502/);
  t.is(error.retryAfterSeconds, 5);
  const everything = `${error.message} ${causeMessage(error)} ${JSON.stringify(error)}`;
  t.false(everything.includes('sk_live_leak'));
  t.false(everything.includes('rates.example.test'), 'nor the URL, which may hold a credential');
});

test.serial('a 4xx, a redirect and a connection failure are 503 api_error', async (t) => {
  const scope = nock(FEED)
    .get('/a')
    .query(true)
    .reply(404, { error: 'nope' })
    .get('/b')
    .query(true)
    .reply(302, '', { location: 'https://elsewhere.example.test/' })
    .get('/c')
    .query(true)
    .replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
  await unavailable(t, new HttpFxRateSource({ url: `${FEED}/a` }).midRate('USD', 'THB'), /HTTP 404/);
  await unavailable(t, new HttpFxRateSource({ url: `${FEED}/b` }).midRate('USD', 'THB'), /unreachable/);
  await unavailable(t, new HttpFxRateSource({ url: `${FEED}/c` }).midRate('USD', 'THB'), /unreachable/);
  t.true(scope.isDone());
});

test.serial('a feed slower than timeoutMs is 503 api_error', async (t) => {
  nock(FEED).get('/rates').query(true).delay(500).reply(200, GOOD);
  const started = Date.now();
  await unavailable(t, new HttpFxRateSource({ url: `${FEED}/rates`, timeoutMs: 50 }).midRate('USD', 'THB'), /TimeoutError/);
  t.true(Date.now() - started < 450);
});

test.serial('malformed answers are refused whole: numbers, non-decimal strings, wrong base, no date, not JSON', async (t) => {
  const bodies: unknown[] = [
    { ...GOOD, rates: { ...GOOD.rates, THB: 35.12 } },
    { ...GOOD, rates: { ...GOOD.rates, THB: '3.512e1' } },
    { ...GOOD, rates: { ...GOOD.rates, THB: '35,12' } },
    { ...GOOD, rates: { ...GOOD.rates, THB: '-35.12' } },
    { ...GOOD, rates: { ...GOOD.rates, THB: '0' } },
    { ...GOOD, rates: { ...GOOD.rates, THB: '' } },
    { ...GOOD, rates: { ...GOOD.rates, THB: null } },
    { ...GOOD, rates: { ...GOOD.rates, thb: '35.12' } },
    { ...GOOD, rates: { ...GOOD.rates, USD: '1.1' } },
    { ...GOOD, rates: {} },
    { ...GOOD, rates: [] },
    { ...GOOD, base: 'EUR' },
    { ...GOOD, as_of: undefined },
    { ...GOOD, as_of: 'yesterday' },
    [GOOD],
    'not json {',
  ];
  for (const [i, body] of bodies.entries()) {
    const scope = nock(FEED)
      .get(`/m${i}`)
      .query(true)
      .reply(200, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/json' });
    await unavailable(t, new HttpFxRateSource({ url: `${FEED}/m${i}` }).midRate('USD', 'JPY'), /malformed|not JSON/);
    t.true(scope.isDone(), JSON.stringify(body));
  }
});

test.serial('without nock the network is off, so no test above reached a real host', async (t) => {
  await unavailable(t, new HttpFxRateSource({ url: 'https://unmocked.example.test/rates' }).midRate('USD', 'THB'), /unreachable/);
});

test.serial('a failure is not cached: the next request tries the feed again', async (t) => {
  nock(FEED).get('/rates').query(true).reply(503, 'down');
  const source = new HttpFxRateSource({ url: `${FEED}/rates` });
  await unavailable(t, source.midRate('USD', 'THB'), /HTTP 503/);
  nock(FEED).get('/rates').query(true).reply(200, GOOD);
  t.is(await source.midRate('USD', 'THB'), '35.12');
});

test.serial('an answer over 1 MiB is refused', async (t) => {
  const big = { ...GOOD, padding: 'x'.repeat(1024 * 1024) };
  nock(FEED).get('/rates').query(true).reply(200, big);
  await unavailable(t, new HttpFxRateSource({ url: `${FEED}/rates` }).midRate('USD', 'THB'), /too large/);
});
