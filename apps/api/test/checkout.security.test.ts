import { Writable } from 'node:stream';
import test from 'ava';
import { FakeClock } from '@payments/in-memory';
import pino from 'pino';
import { checkoutClient } from './helpers/checkout';
import { jsonAt } from './helpers/json';
import { startTestApp, type TestApp } from './helpers/test-app';

/** Every log line the app writes, as text. */
function capturingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'info', base: undefined }, stream), lines };
}

const clock = new FakeClock(new Date());
const capture = capturingLogger();
let t0: TestApp;
/** A second app with a small per-token limit; the limiter keeps real time, so it waits for real. */
let limited: TestApp;

test.before(async () => {
  t0 = await startTestApp({ clock, logger: capture.logger, env: { PAYMENTS_RATE_LIMIT_CHECKOUT: '0' } });
  limited = await startTestApp({ env: { PAYMENTS_RATE_LIMIT_CHECKOUT: '3' } });
});
test.after.always(async () => {
  await t0?.close();
  await limited?.close();
});

test.serial('the token never reaches the logs: request lines carry the route template', async (t) => {
  const shop = await t0.merchant();
  const client = checkoutClient(t0);
  const { token } = await client.createIntent(shop.testKey, { return_url: 'https://shop.example.com/done' });
  await client.page(token);
  await client.pay(token);
  await client.simulate(token, { outcome: 'succeeded' });
  await client.status(token);
  await client.pay('B'.repeat(43));
  await new Promise((resolve) => setTimeout(resolve, 50)); // pino writes asynchronously
  const text = capture.lines.join('');
  t.true(text.includes('/c/{token}'), 'the page request was logged by its template');
  t.true(text.includes('/checkout/sessions/{token}/pay'));
  t.false(text.includes(token), 'the token appears in no log line');
  t.false(text.includes('B'.repeat(43)));
});

test.serial('a token is useless on /v1 and on the dashboard', async (t) => {
  const shop = await t0.merchant();
  const { token, intent } = await checkoutClient(t0).createIntent(shop.testKey);
  const v1 = await t0.request({ method: 'GET', url: `/v1/payment_intents/${intent.id}`, headers: { authorization: `Bearer ${token}` } });
  t.is(v1.statusCode, 401);
  t.is(jsonAt(v1.result, 'error', 'code'), 'authentication_required');
  const dashboard = await t0.request({ method: 'GET', url: '/dashboard/v1/session', headers: { cookie: `dashboard_session=${token}` } });
  t.is(dashboard.statusCode, 401);
  const asKeyOnDashboard = await t0.request({ method: 'GET', url: '/dashboard/v1/session', headers: { authorization: `Bearer ${token}` } });
  t.is(asKeyOnDashboard.statusCode, 401);
});

test.serial('each token has its own rate limit: 429 rate_limited with Retry-After', async (t) => {
  const shop = await limited.merchant();
  const client = checkoutClient(limited);
  const { token } = await client.createIntent(shop.testKey);
  const { token: other } = await client.createIntent(shop.testKey);
  // Six at once (3 per second is the limit): one after another, a loaded machine can take a second
  // over them and rightly refill the bucket in between.
  const answers = await Promise.all(Array.from({ length: 6 }, async () => (await client.status(token)).res));
  const statuses = answers.map((res) => res.statusCode);
  t.is(statuses.filter((status) => status === 200).length, 3, statuses.join(' '));
  t.is(statuses.filter((status) => status === 429).length, 3, statuses.join(' '));
  const refused = answers.find((res) => res.statusCode === 429);
  if (refused === undefined) return;
  t.is(jsonAt(JSON.parse(refused.payload), 'error', 'code'), 'rate_limited');
  t.truthy(refused.headers['retry-after']);
  t.is(refused.headers['cache-control'], 'no-store');
  const page = await client.page(token);
  t.is(page.statusCode, 429, 'the page shares the budget');
  // A payer reloading the page sees a page that says to wait, under the same headers, not JSON.
  t.regex(String(page.headers['content-type']), /^text\/html/);
  t.regex(page.payload, /Too many requests/);
  t.truthy(page.headers['retry-after']);
  t.truthy(page.headers['content-security-policy']);
  t.is(page.headers['cache-control'], 'no-store');
  t.false(page.payload.includes(token), 'the token is not echoed');
  t.is((await client.status(other)).res.statusCode, 200, 'another token is not affected');
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.is((await client.status(token)).res.statusCode, 200, 'the bucket refills');
});

test.serial('an unknown token and an expired session cost the same: one lookup each', async (t) => {
  const shop = await t0.merchant();
  const client = checkoutClient(t0);
  const expired: string[] = [];
  for (let i = 0; i < 5; i += 1) expired.push((await client.createIntent(shop.testKey, { expires_in: 60 })).token);
  clock.advance(61_000);
  const unknown = expired.map((_, i) => `${String.fromCharCode(67 + i)}`.repeat(43));
  const timings: Record<'expired' | 'unknown', number[]> = { expired: [], unknown: [] };
  for (let round = 0; round < 8; round += 1) {
    for (const [kind, tokens] of [
      ['expired', expired],
      ['unknown', unknown],
    ] as const) {
      for (const token of tokens) {
        const started = performance.now();
        const { res } = await client.status(token);
        timings[kind].push(performance.now() - started);
        t.is(res.statusCode, kind === 'expired' ? 410 : 404);
      }
    }
  }
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const ratio = median(timings.unknown) / median(timings.expired);
  t.log(`median unknown ${median(timings.unknown).toFixed(2)} ms, expired ${median(timings.expired).toFixed(2)} ms`);
  t.true(ratio > 0.5 && ratio < 2, `ratio ${ratio.toFixed(2)}`);
});
