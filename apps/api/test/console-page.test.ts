import test from 'ava';
import { jsonAt } from './helpers/json';
import { withAppAndMerchant, type TestApp } from './helpers/test-app';

let t0: TestApp;
withAppAndMerchant({}, (started) => ({ t0 } = started));

const get = (url: string, headers: Record<string, string> = {}) => t0.server.inject({ method: 'GET', url, headers });

test('every console path answers the one page, under the strict page policy, loading only this origin', async (t) => {
  for (const url of ['/dashboard', '/dashboard/', '/dashboard/payments', '/dashboard/payments/pi_AAAAAAAAAAAAAAAAAAAAAAAAAA', '/dashboard/signed-out']) {
    const res = await get(url);
    t.is(res.statusCode, 200, url);
    t.regex(String(res.headers['content-type']), /^text\/html/, url);
    t.is(res.headers['cache-control'], 'no-store', url);
    t.is(res.headers['x-frame-options'], 'DENY', url);
    const csp = String(res.headers['content-security-policy']);
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "font-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
      t.true(csp.includes(directive), directive);
    t.false(csp.includes('unsafe'), url);
    // Nothing is fetched from another origin, and no inline script could run under the policy anyway.
    t.notRegex(res.payload, /(src|href)="(https?:)?\/\//, url);
    t.notRegex(res.payload, /<script>/, url);
    t.regex(res.payload, /<script type="module" src="\/dashboard\/assets\/console\.js"><\/script>/);
  }
});

test('a path that names no page of the console answers the page with 404 (its script shows "not found" with a way back)', async (t) => {
  for (const url of ['/dashboard/nowhere', '/dashboard/payments/pi_1/extra', '/dashboard/Payments', '/dashboard/payments/..%2Fteam', '/dashboard/settings/x']) {
    const res = await get(url);
    t.is(res.statusCode, 404, url);
    t.regex(String(res.headers['content-type']), /^text\/html/, url);
    t.regex(res.payload, /<script type="module" src="\/dashboard\/assets\/console\.js"><\/script>/, url);
    t.regex(String(res.headers['content-security-policy']), /default-src 'none'/, url);
  }
  for (const url of [
    '/dashboard/webhooks/we_1/deliveries/whd_1',
    '/dashboard/settlements/st_1',
    '/dashboard/team/',
    '/dashboard/sign-in',
    '/dashboard/claim',
  ]) {
    t.is((await get(url)).statusCode, 200, url);
  }
});

test('the Thai font is served from this origin as woff2, under the same policy', async (t) => {
  const font = await get('/dashboard/assets/noto-sans-thai-thai-400-normal.woff2');
  t.is(font.statusCode, 200);
  t.is(font.headers['content-type'], 'font/woff2');
  t.is(font.rawPayload.subarray(0, 4).toString('latin1'), 'wOF2');
  t.regex(String(font.headers['content-security-policy']), /font-src 'self'/);
  t.is((await get('/dashboard/assets/noto-sans-thai-thai-700-normal.woff2')).statusCode, 200);
  const css = await get('/dashboard/assets/console.css');
  t.regex(css.payload, /url\(noto-sans-thai-thai-400-normal\.woff2\) format\('woff2'\)/, 'the stylesheet names it relative to itself');
});

test('the built script and stylesheet are served; anything else under assets is 404', async (t) => {
  const js = await get('/dashboard/assets/console.js');
  t.is(js.statusCode, 200);
  t.regex(String(js.headers['content-type']), /^text\/javascript/);
  t.true(js.payload.length > 1000);
  t.notRegex(
    js.payload,
    /https?:\/\/(?!localhost|127\.0\.0\.1|www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\/[^"'\s]*\.(js|css|woff2?)/i,
    'loads no script, style or font from elsewhere',
  );
  const css = await get('/dashboard/assets/console.css');
  t.is(css.statusCode, 200);
  t.regex(String(css.headers['content-type']), /^text\/css/);
  t.is(css.headers['content-security-policy'], js.headers['content-security-policy']);
  for (const url of ['/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/toString', '/dashboard/assets/console.js.map', '/dashboard/assets/']) {
    t.is((await get(url)).statusCode, 404, url);
  }
});

test('a /dashboard/v1 path no API route has is the API 404 envelope, never the page', async (t) => {
  for (const url of ['/dashboard/v1', '/dashboard/v1/', '/dashboard/v1/nothing', '/dashboard/v1/payment_intents/pi_x/unknown']) {
    const res = await get(url);
    t.is(res.statusCode, 404, url);
    t.is(jsonAt(res.result, 'error', 'code'), 'resource_not_found', url);
  }
});

test('the page reads no cookie: a session cookie changes nothing, and none is set', async (t) => {
  const res = await get('/dashboard/team', { cookie: 'dashboard_session=not-a-session' });
  t.is(res.statusCode, 200);
  t.is(res.headers['set-cookie'], undefined);
});
