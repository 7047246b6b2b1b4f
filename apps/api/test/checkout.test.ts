import test from 'ava';
import { MerchantRepository, SetLiveMode } from '@payments/core';
import { checkoutClient } from './helpers/checkout';
import { jsonAt, keysAt, textAt } from './helpers/json';
import { withAppAndMerchant, type TestApp, type TestMerchant } from './helpers/test-app';

let t0: TestApp;
let shop: TestMerchant;
let client: ReturnType<typeof checkoutClient>;

withAppAndMerchant({}, (started) => {
  ({ t0, shop } = started);
  client = checkoutClient(t0);
});

const RETURN_URL = 'https://shop.example.com/thanks?order=1';

test('the page is HTML for the payer: amount in the currency, business name, the methods of the currency, strict headers', async (t) => {
  await t0.app.get<MerchantRepository>(MerchantRepository).updateSettings(shop.id, { name: 'Siam Coffee Roasters' });
  const { token, intent } = await client.createIntent(shop.testKey, { amount: 25050, currency: 'THB', description: 'Two flat whites' });
  const res = await client.page(token);
  t.is(res.statusCode, 200);
  t.regex(String(res.headers['content-type']), /^text\/html/);
  t.is(res.headers['cache-control'], 'no-store');
  t.is(res.headers['referrer-policy'], 'no-referrer');
  const csp = String(res.headers['content-security-policy']);
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]) t.true(csp.includes(directive), directive);
  t.false(csp.includes('unsafe-inline'));
  const html = res.payload;
  t.regex(html, /<html lang="en">/);
  t.regex(html, /THB\s250\.50/, 'amount formatted by Intl in THB');
  t.true(html.includes('Siam Coffee Roasters'));
  t.true(html.includes('Two flat whites'));
  t.true(html.includes(textAt(intent, 'merchant_order_id')));
  for (const method of ['promptpay', 'truemoney', 'alipay_plus']) t.true(html.includes(`value="${method}"`), method);
  t.false(html.includes('value="paynow"'), 'a method of another currency is not offered');
  t.true(html.includes('TEST'), 'test banner');
  t.regex(html, /id="countdown"/);
  // No inline script, style or handler: the CSP would block them.
  t.notRegex(html, /<script(?![^>]*\ssrc=)[^>]*>/);
  t.notRegex(html, /\sstyle=/);
  t.notRegex(html, /\son[a-z]+=/i);
  t.notRegex(html, /sk_(test|live)_/, 'no API key on the page');
  t.false(html.includes(token), 'the token is not written into the page');
  t.deepEqual(await client.attempts(shop.testKey, intent.id), [], 'opening the page creates nothing');
});

test('the page speaks Thai when the payer prefers it, with Thai number formatting', async (t) => {
  const { token } = await client.createIntent(shop.testKey, { amount: 123456, currency: 'THB' });
  const res = await client.page(token, { 'accept-language': 'th-TH,th;q=0.9,en;q=0.8' });
  t.is(res.statusCode, 200);
  t.regex(res.payload, /<html lang="th">/);
  t.is(res.headers['content-language'], 'th');
  t.true(res.payload.includes('฿1,234.56'));
  t.true(res.payload.includes('เลือกวิธีชำระเงิน'));
  const english = await client.page(token, { 'accept-language': 'fr-FR, de;q=0.9' });
  t.regex(english.payload, /<html lang="en">/, 'a language without a catalogue falls back to English');
});

test('currencies are formatted with their own minor units', async (t) => {
  const { token } = await client.createIntent(shop.testKey, { amount: 1500000, currency: 'IDR' });
  const res = await client.page(token);
  t.true(res.payload.includes('IDR'));
  t.true(res.payload.includes('15,000.00'));
  t.true(res.payload.includes('value="qris"'));
});

test('pay gives a credential; a second pay answers the same pending attempt and places nothing new', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  const first = await client.pay(token, { payment_method: 'promptpay' });
  t.is(first.res.statusCode, 200);
  t.is(first.body.status, 'requires_payment');
  t.is(jsonAt(first.body, 'next_action', 'type'), 'qr_code');
  t.truthy(jsonAt(first.body, 'next_action', 'qr_data'));
  const again = await client.pay(token, { payment_method: 'alipay_plus' });
  t.is(again.res.statusCode, 200);
  t.deepEqual(again.body.next_action, first.body.next_action, 'the credential it has');
  t.is((await client.attempts(shop.testKey, intent.id)).length, 1);
  const page = await client.page(token);
  t.regex(page.payload, /<svg[^>]*viewBox/, 'the QR is drawn on the server as SVG');
  t.regex(page.payload, /id="simulate-success"/);
  const status = await client.status(token);
  t.is(status.res.statusCode, 200);
  t.deepEqual(status.body.next_action, first.body.next_action);
});

test('a redirect method gives a redirect to the simulator wallet page of this service, which answers', async (t) => {
  const { token } = await client.createIntent(shop.testKey);
  const { body } = await client.pay(token, { payment_method: 'truemoney' });
  t.is(jsonAt(body, 'next_action', 'type'), 'redirect');
  const walletUrl = textAt(body, 'next_action', 'url');
  const url = new URL(walletUrl);
  t.is(url.origin, 'https://pay.example.test');
  t.regex(url.pathname, /^\/checkout\/simulator-wallet\/sim_/);
  const wallet = await t0.server.inject({ method: 'GET', url: url.pathname });
  t.is(wallet.statusCode, 200);
  t.regex(String(wallet.headers['content-type']), /^text\/html/);
  const page = await client.page(token);
  t.true(page.payload.includes(`href="${walletUrl}"`));
});

test('pay refuses a method the catalog does not have or that does not collect the currency', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  const unknown = await client.pay(token, { payment_method: 'carrier_pigeon' });
  t.is(unknown.res.statusCode, 400);
  t.is(jsonAt(unknown.body, 'error', 'param'), 'payment_method');
  const wrongCurrency = await client.pay(token, { payment_method: 'paynow' });
  t.is(wrongCurrency.res.statusCode, 400);
  const missing = await client.pay(token, {});
  t.is(missing.res.statusCode, 400);
  t.is(jsonAt(missing.body, 'error', 'code'), 'invalid_parameter');
  t.deepEqual(await client.attempts(shop.testKey, intent.id), []);
});

test('simulate success: the state carries redirect_url (the return_url) and the page shows the success', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey, { return_url: RETURN_URL });
  await client.pay(token);
  const before = await client.status(token);
  t.is(before.body.redirect_url, undefined, 'no redirect_url before the payment succeeds');
  const { res, body } = await client.simulate(token, { outcome: 'succeeded' });
  t.is(res.statusCode, 200);
  t.is(body.status, 'succeeded');
  t.is(body.redirect_url, RETURN_URL);
  t.is(body.next_action, undefined);
  t.is((await client.status(token)).body.redirect_url, RETURN_URL);
  t.is((await client.intent(shop.testKey, intent.id)).status, 'succeeded');
  const page = await client.page(token);
  t.true(page.payload.includes('Payment received'));
  t.true(page.payload.includes(`data-return-url="${RETURN_URL.replace('&', '&amp;')}"`));
});

test('without a return_url a paid session has no redirect_url', async (t) => {
  const { token } = await client.createIntent(shop.testKey);
  await client.pay(token);
  const { body } = await client.simulate(token, { outcome: 'succeeded' });
  t.is(body.status, 'succeeded');
  t.false('redirect_url' in body);
});

test('simulate failure: the state says why, the page offers another try, and a new pay places a new attempt', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  await client.pay(token);
  const failed = await client.simulate(token, { outcome: 'failed', failure_code: 'insufficient_funds' });
  t.is(failed.res.statusCode, 200);
  t.is(failed.body.status, 'failed');
  t.is(failed.body.failure_code, 'insufficient_funds');
  const page = await client.page(token);
  t.true(page.payload.includes('Your payment didn&#39;t go through'));
  t.true(page.payload.includes('The account did not have enough funds.'));
  t.regex(page.payload, /id="pay-form"/);
  const retry = await client.pay(token, { payment_method: 'truemoney' });
  t.is(retry.body.status, 'requires_payment');
  t.is(jsonAt(retry.body, 'next_action', 'type'), 'redirect');
  t.is((await client.attempts(shop.testKey, intent.id)).length, 2);
});

test('simulate follows the intent simulate rules', async (t) => {
  const { token } = await client.createIntent(shop.testKey);
  const beforePay = await client.simulate(token, { outcome: 'succeeded' });
  t.is(beforePay.res.statusCode, 409, 'nothing pending to simulate');
  await client.pay(token);
  t.is((await client.simulate(token, { outcome: 'succeeded', failure_code: 'insufficient_funds' })).res.statusCode, 400);
  t.is((await client.simulate(token, { outcome: 'failed', failure_code: 'expired' })).res.statusCode, 400);
  t.is((await client.simulate(token, { outcome: 'pending' })).res.statusCode, 400, 'only succeeded or failed');
  const failed = await client.simulate(token, { outcome: 'failed' });
  t.is(failed.body.failure_code, 'payer_cancelled', 'the default failure code');
});

test('after expiry every route answers 410 and nothing is created', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  await client.expire(shop.testKey, intent.id);
  const page = await client.page(token);
  t.is(page.statusCode, 410);
  t.regex(String(page.headers['content-type']), /^text\/html/);
  t.true(page.payload.includes('This payment link has expired'));
  t.is(page.headers['cache-control'], 'no-store');
  const pay = await client.pay(token);
  t.is(pay.res.statusCode, 410);
  t.is(jsonAt(pay.body, 'error', 'code'), 'checkout_session_expired');
  t.is((await client.status(token)).res.statusCode, 410);
  t.is((await client.simulate(token, { outcome: 'succeeded' })).res.statusCode, 410);
  t.deepEqual(await client.attempts(shop.testKey, intent.id), [], 'no attempt');
});

test('an unknown token is 404 with the same body shape as an expired one', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  await client.expire(shop.testKey, intent.id);
  const unknown = 'A'.repeat(43);
  for (const call of [(tk: string) => client.status(tk), (tk: string) => client.pay(tk)]) {
    const expired = await call(token);
    const missing = await call(unknown);
    t.is(expired.res.statusCode, 410);
    t.is(missing.res.statusCode, 404);
    t.deepEqual(keysAt(missing.body, 'error').sort(), keysAt(expired.body, 'error').sort());
    t.false(JSON.stringify(missing.body).includes(unknown), 'the token is not repeated back');
  }
  const page = await client.page(unknown);
  t.is(page.statusCode, 404);
  t.regex(String(page.headers['content-type']), /^text\/html/);
  t.true(page.payload.includes('Payment link not found'));
});

test('a live session: simulate answers 404 like a missing one; pay is 409 live_not_enabled once live mode is closed', async (t) => {
  const live = await t0.merchant();
  const liveKey = await live.liveKey();
  const { token, intent } = await client.createIntent(liveKey);
  const page = await client.page(token);
  t.is(page.statusCode, 200);
  t.false(page.payload.includes('test-banner'), 'no test banner on a live page');
  t.false(page.payload.includes('simulate-success'));
  const simulate = await client.simulate(token, { outcome: 'succeeded' });
  t.is(simulate.res.statusCode, 404);
  t.is(jsonAt(simulate.body, 'error', 'code'), 'resource_not_found');
  await t0.app.get(SetLiveMode).execute({ merchantId: live.id, enabled: false });
  const pay = await client.pay(token);
  t.is(pay.res.statusCode, 409);
  t.is(jsonAt(pay.body, 'error', 'code'), 'live_not_enabled');
  t.false('next_action' in pay.body);
  await t0.app.get(SetLiveMode).execute({ merchantId: live.id, enabled: true });
  t.deepEqual(await client.attempts(liveKey, intent.id), [], 'no attempt, no credential');
});

test('a canceled intent shows that it was canceled and takes no payment', async (t) => {
  const { token, intent } = await client.createIntent(shop.testKey);
  await t0.request({ method: 'POST', url: `/v1/payment_intents/${intent.id}/cancel`, key: shop.testKey, idempotencyKey: `c-${intent.id}` });
  const page = await client.page(token);
  t.is(page.statusCode, 200);
  t.true(page.payload.includes('Payment canceled'));
  t.is((await client.status(token)).body.status, 'canceled');
  t.is((await client.pay(token)).res.statusCode, 409);
});

test('the static files are served from this origin under the same headers', async (t) => {
  const js = await t0.server.inject({ method: 'GET', url: '/checkout/assets/checkout.js' });
  t.is(js.statusCode, 200);
  t.regex(String(js.headers['content-type']), /^text\/javascript/);
  t.is(js.headers['referrer-policy'], 'no-referrer');
  const css = await t0.server.inject({ method: 'GET', url: '/checkout/assets/checkout.css' });
  t.regex(String(css.headers['content-type']), /^text\/css/);
  t.is((await t0.server.inject({ method: 'GET', url: '/checkout/assets/..%2Fviews%2Fpage.eta' })).statusCode, 404);
  t.is((await t0.server.inject({ method: 'GET', url: '/checkout/assets/toString' })).statusCode, 404);
});
