import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import test from 'ava';
import { compareDecimal } from '@payments/core';
import { REFERENCE_RATES } from '@payments/fx-rates';
import { listeningPort } from '@payments/node-runtime';
import { ConfigError, loadConfig } from '../src/config';
import { startTestApp, type TestApp, type TestMerchant } from './helpers/test-app';
import { objectAt, textAt } from './helpers/json';

/** A rate feed speaking the documented protocol (docs/fx.md) on a local socket. */
interface Feed {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

const FEED_TABLE = { base: 'USD', as_of: '2026-09-01T00:00:00Z', rates: { THB: '32', JPY: '150', KWD: '0.3005', SGD: '1.25' } };

async function startFeed(): Promise<Feed> {
  const requests: string[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.startsWith('/broken')) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('stack trace with feed-secret-7731');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(FEED_TABLE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${listeningPort(server)}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let bundled: TestApp; // the shipped reference table, default spread (50 bps), default fees
let fed: TestApp; // the HTTP rate source on the local feed, no spread, fees from PAYMENTS_FEES
let broken: TestApp; // the HTTP rate source on a feed that answers 500
let feed: Feed;
let shop: TestMerchant;
let fedShop: TestMerchant;
let brokenShop: TestMerchant;

test.before(async () => {
  feed = await startFeed();
  [bundled, fed, broken] = await Promise.all([
    startTestApp(),
    startTestApp({
      env: {
        PAYMENTS_FX_RATES_URL: `${feed.url}/v1/rates`,
        PAYMENTS_FX_SPREAD_BPS: '0',
        PAYMENTS_FEES: JSON.stringify({ alipay_plus: { percent: '2', fixed: { JPY: 10 } } }),
      },
    }),
    startTestApp({ env: { PAYMENTS_FX_RATES_URL: `${feed.url}/broken` } }),
  ]);
  [shop, fedShop, brokenShop] = await Promise.all([bundled.merchant(), fed.merchant(), broken.merchant()]);
});
test.after.always(async () => {
  await Promise.all([bundled?.close(), fed?.close(), broken?.close()]);
  await feed?.close();
});

const quote = (query: string, key = shop.testKey, app = bundled) => app.request({ method: 'GET', url: `/v1/fx/quotes?${query}`, key });

test("a quote is indicative, its rate a decimal string with the spread taken in the platform's favour", async (t) => {
  const res = await quote('from=USD&to=THB');
  t.is(res.statusCode, 200);
  t.deepEqual(res.result, { indicative: true, from: 'USD', to: 'THB', rate: '32.3773' }); // 32.54 × 0.995
  t.true(res.payload.includes('"rate":"32.3773"'), 'a string on the wire, never a number');
  t.is(res.headers['api-version'], '2026-09-01');
  t.is(res.headers['cache-control'], 'no-store');

  const cases: Array<[from: string, to: string, mid: string, rate: string]> = [
    ['THB', 'USD', '0.030731407498463429625', '0.0305777504609'], // cross through USD, cut to 12 digits
    ['USD', 'JPY', '144.05', '143.32975'],
    ['USD', 'KWD', '0.3056', '0.304072'],
    ['JPY', 'KWD', '0.0021214855952794168691', '0.0021108781673'],
    ['KWD', 'JPY', '471.36780104712041885', '469.010962041'],
  ];
  for (const [from, to, mid, rate] of cases) {
    const quoted = textAt((await quote(`from=${from}&to=${to}`)).result, 'rate');
    t.is(quoted, rate, `${from}/${to}`);
    t.regex(quoted, /^[0-9]+\.[0-9]+$/);
    t.is(compareDecimal(quoted, mid), -1, 'the merchant gets fewer units of to than at mid');
  }
  t.is(REFERENCE_RATES.rates.THB, '32.54', 'the expectations above are computed from the shipped table');
});

test('estimated rounds half-even to the minor units of the target currency (JPY 0, KWD 3)', async (t) => {
  const cases: Array<[query: string, amount: number]> = [
    ['from=USD&to=JPY&amount=10000', 14333], // 14332.975
    ['from=USD&to=JPY&amount=200000', 286660], // 286659.5 → even
    ['from=USD&to=JPY&amount=600000', 859978], // 859978.5 → even
    ['from=USD&to=KWD&amount=6250', 19004], // 19004.5 fils → even
    ['from=USD&to=KWD&amount=18750', 57014], // 57013.5 → even
    ['from=USD&to=KWD&amount=0', 0],
  ];
  for (const [query, amount] of cases) {
    const body = objectAt((await quote(query)).result);
    t.deepEqual(body.estimated, { amount, currency: body.to }, query);
  }
});

test('ties round half-even on a live rate feed too, and the feed is asked for base USD', async (t) => {
  const cases: Array<[query: string, rate: string, amount: number]> = [
    ['from=USD&to=JPY&amount=1', '150', 2], // 1.5 yen → 2
    ['from=USD&to=JPY&amount=3', '150', 4], // 4.5 → 4
    ['from=USD&to=KWD&amount=100', '0.3005', 300], // 300.5 fils → 300
    ['from=USD&to=KWD&amount=300', '0.3005', 902], // 901.5 → 902
    ['from=THB&to=JPY&amount=32', '4.6875', 2], // 1.5 yen → 2
    ['from=THB&to=JPY&amount=96', '4.6875', 4], // 4.5 → 4
  ];
  for (const [query, rate, amount] of cases) {
    const res = await quote(query, fedShop.testKey, fed);
    t.is(res.statusCode, 200, res.payload);
    t.like(res.result, { rate, estimated: { amount } }, query);
  }
  t.true(feed.requests.some((url) => url === '/v1/rates?base=USD'));
});

test("with payment_method, estimated is the converted amount less that method's fee in the target currency", async (t) => {
  // 100 000 satang × 0.0305777504609 = 3057.775 cents → 3058; promptpay 1.65 % = 50.457 → 50
  t.deepEqual((await quote('from=THB&to=USD&amount=100000&payment_method=promptpay')).result, {
    indicative: true,
    from: 'THB',
    to: 'USD',
    rate: '0.0305777504609',
    estimated: { amount: 3008, currency: 'USD' },
  });
  t.like((await quote('from=THB&to=USD&amount=100000')).result, { estimated: { amount: 3058, currency: 'USD' } });
  // PAYMENTS_FEES: alipay_plus 2 % + 10 JPY. $100 → 15 000 yen; fee 300 + 10.
  t.like((await quote('from=USD&to=JPY&amount=10000&payment_method=alipay_plus', fedShop.testKey, fed)).result, {
    estimated: { amount: 14_690, currency: 'JPY' },
  });
  // A method but no amount: nothing to estimate.
  const rateOnly = objectAt((await quote('from=THB&to=USD&payment_method=promptpay')).result);
  t.false('estimated' in rateOnly);
});

test('the same currency is rate "1" with the fee taken', async (t) => {
  t.deepEqual((await quote('from=THB&to=THB&amount=10000&payment_method=promptpay')).result, {
    indicative: true,
    from: 'THB',
    to: 'THB',
    rate: '1',
    estimated: { amount: 9835, currency: 'THB' },
  });
  t.like((await quote('from=JPY&to=JPY&amount=9007199254740991')).result, { estimated: { amount: 9007199254740991 } });
});

test('a live key and a test key both get the same quote', async (t) => {
  const liveKey = await shop.liveKey();
  const live = await quote('from=USD&to=THB&amount=1000', liveKey);
  const testMode = await quote('from=USD&to=THB&amount=1000');
  t.is(live.statusCode, 200);
  t.deepEqual(live.result, testMode.result);
  t.like(live.result, { rate: '32.3773', estimated: { amount: 32377, currency: 'THB' } });
});

test('every bad input is a 400 envelope naming the field', async (t) => {
  const cases: Array<[query: string, param: string, code?: string]> = [
    ['to=THB', 'from'],
    ['from=USD', 'to'],
    ['from=usd&to=THB', 'from'],
    ['from=US&to=THB', 'from'],
    ['from=USD&to=THBX', 'to'],
    ['from=USD&from=EUR&to=THB', 'from'],
    ['from=XYZ&to=THB', 'from'], // the pattern fits, but no such ISO 4217 currency
    ['from=USD&to=QQQ', 'to'],
    ['from=ZAR&to=THB', 'from', 'unsupported_currency_pair'], // ISO 4217, but not in the rate table
    ['from=THB&to=ZAR', 'to', 'unsupported_currency_pair'],
    ['from=THB&to=USD&payment_method=visa', 'payment_method'],
    ['from=THB&to=USD&payment_method=', 'payment_method'],
    ['from=THB&to=USD&payment_method=paynow', 'payment_method'], // paynow collects SGD only
    ['from=USD&to=THB&payment_method=promptpay', 'payment_method'],
    ['from=THB&to=USD&amount=-1', 'amount'],
    ['from=THB&to=USD&amount=1.5', 'amount'],
    ['from=THB&to=USD&amount=1e3', 'amount'],
    ['from=THB&to=USD&amount=abc', 'amount'],
    ['from=THB&to=USD&amount=', 'amount'],
    ['from=THB&to=USD&amount=9007199254740992', 'amount'],
    ['from=THB&to=USD&amount=99999999999999999999', 'amount'],
    ['from=USD&to=IDR&amount=9007199254740991', 'amount'], // converts past 2^53 − 1
    ['from=THB&to=USD&colour=red', 'colour'],
  ];
  for (const [query, param, code = 'invalid_parameter'] of cases) {
    const res = await quote(query);
    t.is(res.statusCode, 400, query);
    const error = objectAt(res.result, 'error');
    t.like(error, { code, param }, query);
    t.is(typeof error.message, 'string');
    t.regex(textAt(error, 'request_id'), /^req_/);
  }
});

test('without a key it is 401, like every /v1 route', async (t) => {
  const res = await bundled.request({ method: 'GET', url: '/v1/fx/quotes?from=USD&to=THB' });
  t.is(res.statusCode, 401);
  t.like(res.result, { error: { code: 'authentication_required' } });
});

test('a rate feed that fails is 503 api_error, with nothing of its answer', async (t) => {
  const res = await quote('from=USD&to=THB', brokenShop.testKey, broken);
  t.is(res.statusCode, 503);
  t.like(res.result, { error: { code: 'api_error' } });
  t.is(res.headers['retry-after'], '5');
  t.false(res.payload.includes('feed-secret-7731'));
  t.false(res.payload.includes('127.0.0.1'));
  t.true(
    feed.requests.some((url) => url.startsWith('/broken?base=USD')),
    'the feed was really asked',
  );
  // The same currency needs no rate, so it still answers.
  t.is((await quote('from=THB&to=THB', brokenShop.testKey, broken)).statusCode, 200);
});

test('configuration: spread and fee schedule are checked at start', (t) => {
  const base = { PAYMENTS_MASTER_KEY: 'ab'.repeat(32), PAYMENTS_DATABASE_URL: 'sqlite::memory:' };
  const config = loadConfig(base);
  t.is(config.fxSpreadBps, 50);
  t.is(config.fxRatesUrl, undefined);
  t.is(config.fees.promptpay?.percent, '1.65');
  t.is(loadConfig({ ...base, PAYMENTS_FEES: '{"qris": {"percent": "0.3", "fixed": {"IDR": 100}}}' }).fees.qris?.fixed.IDR, 100);
  for (const env of [
    { PAYMENTS_FX_SPREAD_BPS: '-1' },
    { PAYMENTS_FX_SPREAD_BPS: '12.5' },
    { PAYMENTS_FX_RATES_URL: 'ftp://rates.example.com' },
    { PAYMENTS_FEES: 'not json' },
    { PAYMENTS_FEES: '{"promptpay": {"percent": 1.65}}' },
    { PAYMENTS_FEES: '{"visa": {"percent": "2"}}' },
  ]) {
    t.throws(() => loadConfig({ ...base, ...env }), { instanceOf: ConfigError }, JSON.stringify(env));
  }
});

test('configuration: in production the rate source and the payout provider must be https', (t) => {
  const base = { PAYMENTS_MASTER_KEY: 'ab'.repeat(32), PAYMENTS_DATABASE_URL: 'sqlite::memory:' };
  const payout = { PAYMENTS_PAYOUT_REST_URL: 'http://payouts.example.com', PAYMENTS_PAYOUT_REST_SECRET: 's'.repeat(32) };
  const rates = { PAYMENTS_FX_RATES_URL: 'http://rates.example.com/v1/rates' };
  // Allowed in development, for local stubs.
  t.is(loadConfig({ ...base, ...payout, ...rates }).payoutRest?.baseUrl, 'http://payouts.example.com');
  for (const env of [payout, rates]) {
    const error = t.throws(() => loadConfig({ ...base, ...env, NODE_ENV: 'production' }), { instanceOf: ConfigError });
    t.regex(error?.message ?? '', /must be an https URL/);
  }
  const secure = loadConfig({
    ...base,
    NODE_ENV: 'production',
    PAYMENTS_PAYOUT_REST_URL: 'https://payouts.example.com',
    PAYMENTS_PAYOUT_REST_SECRET: 's'.repeat(32),
    PAYMENTS_FX_RATES_URL: 'https://rates.example.com/v1/rates',
  });
  t.is(secure.fxRatesUrl, 'https://rates.example.com/v1/rates');
});
