import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT, runAdmin, serviceEnvironment, startService, freePort, type RunningService, type ServiceEnvironment } from '../e2e/process';
import { textAt } from '../fixtures';
import { axeViolations, launchChromium, serious } from './checkout-browser';

/**
 * The hosted checkout in a real browser against the real service process (`npm start`'s worker
 * with the API): the payer's path from the link to the shop's return page.
 */
const RETURN_URL = 'https://shop.example.com/thanks';
const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');

let environment: ServiceEnvironment;
let service: RunningService;
let browser: Browser;
let testKey: string;

test.before(async () => {
  browser = await launchChromium();
  environment = await serviceEnvironment();
  // checkout_url must point at this process, whose port serviceEnvironment picked.
  const port = environment.env.PAYMENTS_PORT ?? String(await freePort());
  environment.env.PAYMENTS_BASE_URL = `http://127.0.0.1:${port}`;
  service = await startService(environment.env);
  const created = await runAdmin(environment.env, [
    'merchant',
    'create',
    '--name',
    'Siam Coffee Roasters',
    '--email',
    `owner-${Date.now()}@example.com`,
    '--password',
    'correct horse battery staple',
  ]);
  if (created.code !== 0) throw new Error(`merchant create failed: ${created.stderr}`);
  testKey = textAt(JSON.parse(created.stdout), 'test_api_key');
  mkdirSync(ARTIFACTS, { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
  await service?.stop();
  await environment?.cleanup();
});

let counter = 0;
async function api(path: string, body: unknown): Promise<unknown> {
  counter += 1;
  const res = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': `browser-${Date.now()}-${counter}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function newIntent(overrides: Record<string, unknown> = {}): Promise<{ id: string; checkoutUrl: string }> {
  const intent = await api('/v1/payment_intents', {
    amount: 25000,
    currency: 'THB',
    merchant_order_id: `order-${Date.now()}-${counter}`,
    description: 'Two flat whites and a croissant',
    return_url: RETURN_URL,
    ...overrides,
  });
  return { id: textAt(intent, 'id'), checkoutUrl: textAt(intent, 'checkout_url') };
}

/** A phone-sized page; the shop's return page is answered here (return_url must be a public https URL). */
async function phone(options: { locale?: string } = {}): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, locale: options.locale ?? 'en-US' });
  await context.route('https://shop.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Thanks</title><h1>Thank you for your order</h1>' }),
  );
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspErrors.push(message.text());
  });
  return { context, page, cspErrors };
}

test('pay with a QR: pick a method, see the QR, simulate success, land on the return URL', async (t) => {
  const { checkoutUrl } = await newIntent();
  const { context, page, cspErrors } = await phone();
  try {
    const response = await page.goto(checkoutUrl);
    t.is(response?.status(), 200);
    t.is(await page.locator('html').getAttribute('lang'), 'en');
    t.is(await page.locator('.merchant-name').textContent(), 'Siam Coffee Roasters');
    t.regex((await page.locator('#amount').textContent()) ?? '', /THB\s250\.00/);
    t.true(await page.locator('.test-banner').isVisible());
    t.deepEqual(serious(await axeViolations(page)), [], 'no serious accessibility problems on the choice');
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-360-choose.png'), fullPage: true });

    await page.getByLabel('PromptPay').check();
    await page.getByRole('button', { name: /Continue/ }).click();
    await page.locator('#qr svg').waitFor();
    t.true(await page.getByRole('img', { name: /QR code to pay with PromptPay/ }).isVisible());
    t.deepEqual(serious(await axeViolations(page)), [], 'no serious accessibility problems on the QR');
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    t.true(width <= 360, `no horizontal scrolling at 360 px (${width})`);
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-360.png'), fullPage: true });

    await page.getByRole('button', { name: 'Simulate success' }).click();
    await page.getByText('Payment received').waitFor();
    await page.waitForURL(RETURN_URL, { timeout: 15_000 });
    t.is(await page.locator('h1').textContent(), 'Thank you for your order');
    t.deepEqual(cspErrors, [], 'nothing on the page broke the CSP');
  } finally {
    await context.close();
  }
});

test('a failed payment says so and the payer can try again', async (t) => {
  const { checkoutUrl } = await newIntent();
  const { context, page } = await phone();
  try {
    await page.goto(checkoutUrl);
    await page.getByRole('button', { name: /Continue/ }).click();
    await page.locator('#qr svg').waitFor();
    await page.getByRole('button', { name: 'Simulate failure' }).click();
    const alert = page.getByRole('alert').filter({ hasText: "didn't go through" });
    await alert.waitFor();
    t.true((await alert.textContent())?.includes('The account did not have enough funds.'));
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-360-failed.png'), fullPage: true });
    t.deepEqual(serious(await axeViolations(page)), []);

    await page.getByLabel('TrueMoney Wallet').check();
    await page.getByRole('button', { name: /Continue/ }).click();
    const wallet = page.getByRole('link', { name: /Open TrueMoney Wallet/ });
    await wallet.waitFor();
    t.regex((await wallet.getAttribute('href')) ?? '', /\/checkout\/simulator-wallet\/sim_/);
    await page.getByRole('button', { name: 'Simulate success' }).click();
    await page.waitForURL(RETURN_URL, { timeout: 15_000 });
    t.pass();
  } finally {
    await context.close();
  }
});

test('the page follows the payment by itself (polling) and counts down to expiry', async (t) => {
  const { id, checkoutUrl } = await newIntent();
  const { context, page } = await phone();
  try {
    await page.goto(checkoutUrl);
    await page.getByRole('button', { name: /Continue/ }).click();
    await page.locator('#qr svg').waitFor();
    const before = await page.locator('#countdown').textContent();
    await page.waitForTimeout(1500);
    t.not(await page.locator('#countdown').textContent(), before, 'the countdown moves');
    // The payment fails elsewhere (the merchant's integration simulates it): the page notices on its own.
    await api(`/v1/test/payment_intents/${id}/simulate`, { outcome: 'failed', failure_code: 'risk_blocked' });
    // The page promises to notice within one poll period (2 s) after a poll in flight answers or is
    // given up (10 s), then reloads: on a loaded machine that is more than 10 s, never more than 30.
    await page.getByText('Your bank or wallet declined the payment.').waitFor({ timeout: 30_000 });
    t.pass();
  } finally {
    await context.close();
  }
});

/**
 * Holds back the page's script until `release` is called, as a slow network or a busy machine
 * does: the server-rendered page is on screen, its buttons visible, before the script runs.
 */
async function holdScript(context: BrowserContext): Promise<{ hold: () => void; release: () => void }> {
  let gate: Promise<void> | undefined;
  let open = (): void => undefined;
  await context.route('**/checkout/assets/checkout.js', async (route) => {
    await gate;
    await route.continue();
  });
  return {
    hold: () => {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
  };
}

test('a button pressed before the page script has loaded is not lost: it waits, disabled, until the script can act on it', async (t) => {
  const { checkoutUrl } = await newIntent();
  const { context, page } = await phone();
  try {
    const script = await holdScript(context);
    script.hold();
    await page.goto(checkoutUrl, { waitUntil: 'commit' });
    const pay = page.getByRole('button', { name: /Continue/ });
    await pay.waitFor();
    t.true(await pay.isDisabled(), 'Continue does nothing yet, so it looks so');
    const continued = pay.click();
    script.release();
    await continued;
    await page.locator('#qr svg').waitFor();

    // The page the payment reloaded into: the QR is up before its script is.
    script.hold();
    await page.reload({ waitUntil: 'commit' });
    await page.locator('#qr svg').waitFor();
    const failure = page.getByRole('button', { name: 'Simulate failure' });
    t.true(await failure.isDisabled());
    const pressed = failure.click();
    script.release();
    await pressed;
    const alert = page.getByRole('alert').filter({ hasText: "didn't go through" });
    await alert.waitFor({ timeout: 15_000 });
    t.true((await alert.textContent())?.includes('The account did not have enough funds.'));
  } finally {
    await context.close();
  }
});

test('a status request that never answers does not stop the page following the payment', async (t) => {
  const { id, checkoutUrl } = await newIntent();
  const { context, page } = await phone();
  try {
    let hang = false;
    let asked = 0;
    // Once the QR is up, its first status request hangs (as one can on a phone switching
    // networks: no answer, no error); the ones after it pass.
    await context.route('**/checkout/sessions/*/status', async (route) => {
      if (!hang) return route.continue();
      asked += 1;
      if (asked === 1) return undefined;
      return route.continue();
    });
    await page.goto(checkoutUrl);
    await page.getByRole('button', { name: /Continue/ }).click();
    await page.locator('#qr svg').waitFor();
    hang = true;
    await api(`/v1/test/payment_intents/${id}/simulate`, { outcome: 'failed', failure_code: 'risk_blocked' });
    await page.getByText('Your bank or wallet declined the payment.').waitFor({ timeout: 25_000 });
    t.true(asked >= 2, 'the page asked again after the request that hung');
  } finally {
    await context.close();
  }
});

test('an expired link shows an expired page and offers nothing to pay', async (t) => {
  const { id, checkoutUrl } = await newIntent();
  await api(`/v1/test/payment_intents/${id}/advance`, { clock: 'expiry' });
  const { context, page } = await phone();
  try {
    const response = await page.goto(checkoutUrl);
    t.is(response?.status(), 410);
    t.is(await page.getByRole('heading', { level: 1 }).textContent(), 'This payment link has expired');
    t.is(await page.locator('form').count(), 0);
    t.deepEqual(serious(await axeViolations(page)), []);
  } finally {
    await context.close();
  }
});

test('a Thai-speaking payer gets the page in Thai with Thai formatting', async (t) => {
  const { checkoutUrl } = await newIntent({ amount: 123456 });
  const { context, page } = await phone({ locale: 'th-TH' });
  try {
    await page.goto(checkoutUrl);
    t.is(await page.locator('html').getAttribute('lang'), 'th');
    t.is(await page.locator('#amount').textContent(), '฿1,234.56');
    await page.screenshot({ path: join(ARTIFACTS, 'checkout-360-th.png'), fullPage: true });
    t.true(await page.getByRole('group', { name: 'เลือกวิธีชำระเงิน' }).isVisible());
    t.deepEqual(serious(await axeViolations(page)), []);
  } finally {
    await context.close();
  }
});
