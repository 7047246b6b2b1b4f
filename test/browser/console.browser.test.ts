import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { OtplibOneTimeCodes } from '@payments/otp';
import {
  createMerchantWithAdmin,
  merchantApi,
  REPO_ROOT,
  serviceEnvironment,
  startService,
  type RunningService,
  type ServiceEnvironment,
} from '../e2e/process';
import { jsonAt, textAt } from '../fixtures';
import { axeViolations, launchChromium, serious } from './checkout-browser';

/**
 * The merchant console in a real browser against the real service process: a new owner from
 * claiming the second factor to a refund, a dispute, a settlement, keys, a webhook resend and a new
 * member; then a viewer's tour. `CONSOLE_SCREENSHOTS=docs/images` writes the README's pictures.
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS ? join(REPO_ROOT, process.env.CONSOLE_SCREENSHOTS) : join(REPO_ROOT, 'test-artifacts', 'console');
const PASSWORD = 'correct horse battery staple';

let environment: ServiceEnvironment;
let service: RunningService;
let browser: Browser;

test.before(async () => {
  browser = await launchChromium();
  environment = await serviceEnvironment();
  service = await startService(environment.env);
  mkdirSync(SHOTS, { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
  await service?.stop();
  await environment?.cleanup();
});

/**
 * An authenticator app for the test: the code of a 30-second step the service accepts (its clock
 * allows one step either way) and never one already used by that person, since a used step is
 * refused. It offers the current step, then the next one (valid for a minute or more, so a slow
 * machine's delay before the service checks it cannot push it out of the window), and waits for
 * the next step when both are spent.
 */
class Authenticator {
  private readonly codes = new OtplibOneTimeCodes();
  private readonly lastStep = new Map<string, number>();

  async code(secret: string): Promise<string> {
    for (;;) {
      const step = Math.floor(Date.now() / 30_000);
      const next = Math.max(step, (this.lastStep.get(secret) ?? -Infinity) + 1);
      if (next <= step + 1) {
        this.lastStep.set(secret, next);
        return this.codes.codeAt(secret, new Date(next * 30_000 + 15_000));
      }
      await new Promise((resolve) => setTimeout(resolve, (step + 1) * 30_000 - Date.now() + 200));
    }
  }
}
const authenticator = new Authenticator();

interface Tab {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every API answer the console got, as `status method path`. */
  readonly answers: string[];
  readonly problems: string[];
}

async function openConsole(viewport = { width: 1280, height: 860 }): Promise<Tab> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  const answers: string[] = [];
  const problems: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/dashboard/v1/')) answers.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  await page.goto(`${service.baseUrl}/dashboard`);
  return { context, page, answers, problems };
}

/** First sign-in of a member: claim the second factor (QR and key), then sign in; the key the app would keep. */
async function claimAndSignIn(tab: Tab, email: string, password: string, checked?: Checked): Promise<string> {
  const { page } = tab;
  await page.getByRole('link', { name: /First sign-in/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page
    .getByRole('img', { name: /QR code of your second factor/ })
    .locator('svg')
    .waitFor();
  const secret = (await page.locator('code.secret-value').textContent()) ?? '';
  if (checked) await checkAccessible(checked, page, 'second-factor claim');
  await page.getByLabel('One-time code').fill(await authenticator.code(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signedIn = page.getByRole('heading', { name: 'Payments', level: 1 });
  await signedIn.or(page.getByRole('alert')).first().waitFor();
  if (!(await signedIn.isVisible())) throw new Error(`sign-in refused: ${(await page.getByRole('alert').textContent()) ?? ''}`);
  return secret;
}

async function go(page: Page, link: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

type Checked = { deepEqual: (a: unknown, b: unknown, m?: string) => void };

async function checkAccessible(t: Checked, page: Page, label: string): Promise<void> {
  t.deepEqual(serious(await axeViolations(page)), [], `no serious or critical accessibility problem: ${label}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`), fullPage: true });
}

/** The service's last warnings and errors (its log is JSON lines), for a failure's report. */
function lastWarnings(): string {
  return service
    .output()
    .split('\n')
    .filter((line) => /"level":(40|50|60)/.test(line))
    .slice(-15)
    .join('\n');
}

/**
 * Whether `locator` shows within a few seconds. After a reload the page fetches its data on its
 * own, so a check made at once would see the page before its data and never succeed on a slow run.
 */
function appears(locator: Locator, timeoutMs = 5_000): Promise<boolean> {
  return locator
    .first()
    .waitFor({ timeout: timeoutMs })
    .then(
      () => true,
      () => false,
    );
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the service's last warnings:\n${lastWarnings()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A test-mode intent the payer paid with PromptPay: created, an attempt placed, success simulated and recorded. */
async function paidIntent(api: ReturnType<typeof merchantApi>, amount: number, order: string): Promise<string> {
  const id = textAt(await api('POST', '/v1/payment_intents', { amount, currency: 'THB', merchant_order_id: order }), 'id');
  await api('POST', `/v1/payment_intents/${id}/attempts`, { payment_method: 'promptpay' });
  await api('POST', `/v1/test/payment_intents/${id}/simulate`, { outcome: 'succeeded' });
  await until(async () => textAt(await api('GET', `/v1/payment_intents/${id}`), 'status') === 'succeeded', `${id} to succeed`);
  return id;
}

test.serial('a new owner: second factor, a payment refunded, a dispute answered, a payout, keys, a webhook resent, a member added', async (t) => {
  const merchant = await createMerchantWithAdmin(environment.env, { name: 'Siam Coffee Roasters', password: PASSWORD });
  const api = merchantApi(service.baseUrl, merchant.testApiKey);
  const owner = await openConsole();
  const { page } = owner;
  try {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkAccessible(t, page, 'sign-in');
    await shoot(page, 'sign-in');
    const ownerSecret = await claimAndSignIn(owner, merchant.email, PASSWORD, t);
    t.true(await page.getByText('Test mode: no real money moves.').isVisible());
    t.true(await page.getByRole('radio', { name: 'Live' }).isDisabled(), 'live is greyed out until the review');

    // Settings: a manual schedule, so "pay out now" is offered.
    await go(page, 'Settings', 'Settings');
    await page.getByLabel('Settlement schedule').selectOption('manual');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved.').waitFor();
    await checkAccessible(t, page, 'settings');

    // A webhook endpoint that cannot be reached (.invalid never resolves): its deliveries fail.
    await go(page, 'Webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill('https://hooks.siam-coffee.invalid/payments');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('region', { name: 'Signing secret of the endpoint' }).waitFor();
    t.regex((await page.locator('.secret .secret-value').textContent()) ?? '', /^[0-9a-f]{64}$/);

    // A test payment, paid; then a dispute on a second one.
    const paidId = await paidIntent(api, 125_050, 'order-refund');
    const disputedId = await paidIntent(api, 40_000, 'order-dispute');
    await api('POST', `/v1/test/payment_intents/${disputedId}/simulate`, { outcome: 'dispute_opened' });

    // Payments: the list, a search, the detail; refund part of it.
    await go(page, 'Payments', 'Payments');
    await page.getByRole('link', { name: /1,250\.50 THB/ }).waitFor();
    await checkAccessible(t, page, 'payments');
    await shoot(page, 'payments');
    await page.getByLabel('Order or payment ID').fill('order-refund');
    await page.getByRole('button', { name: 'Apply' }).click();
    await until(async () => (await page.locator('tbody tr').count()) === 1, 'the search to narrow the list');
    await page.getByRole('link', { name: /1,250\.50 THB/ }).click();
    await page.getByRole('heading', { name: /1,250\.50 THB/, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog');
    await refund.getByText('Left to refund: 1,250.50 THB').waitFor();
    await refund.getByLabel('Amount (THB)').fill('250.50');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Left to refund', { exact: true }).locator('..').getByText('1,000.00 THB').waitFor();
    await page.locator('table').filter({ hasText: '250.50 THB' }).waitFor();
    await until(async () => {
      await page.reload();
      return appears(page.getByRole('link', { name: 'refund.succeeded' }));
    }, 'the refund to succeed at the simulator');
    await checkAccessible(t, page, 'payment detail');
    await shoot(page, 'payment');

    // Disputes: the evidence form, then read-only once ruled.
    await go(page, 'Disputes', 'Disputes');
    await page.getByRole('link', { name: /400\.00 THB/ }).click();
    await page.getByRole('heading', { name: /Dispute/, level: 1 }).waitFor();
    await page.getByLabel('Your explanation').fill('The customer collected the beans in the shop; receipt attached.');
    await page.getByLabel('Field').first().fill('receipt_number');
    await page.getByLabel('Value').first().fill('R-2026-0042');
    await page.getByRole('button', { name: 'Submit evidence' }).click();
    await page.getByText('Evidence submitted.').waitFor();
    await checkAccessible(t, page, 'dispute');
    await shoot(page, 'dispute');
    await api('POST', `/v1/test/payment_intents/${disputedId}/simulate`, { outcome: 'dispute_won' });
    await until(async () => {
      await page.reload();
      return appears(page.getByText('This dispute has been ruled'));
    }, 'the dispute to be ruled');
    t.is(await page.getByRole('button', { name: 'Submit evidence' }).count(), 0, 'a ruled dispute takes no evidence');

    // Balance and a payout: release the paid money, pay out now.
    await api('POST', `/v1/test/payment_intents/${paidId}/advance`, { clock: 'release' });
    // The worker releases the money on its next pass: pay out once it is available, or the console
    // rightly answers that there is nothing to settle.
    await until(async () => {
      const available = jsonAt(await api('GET', '/v1/balance'), 'available');
      return Array.isArray(available) && available.some((entry) => jsonAt(entry, 'currency') === 'THB' && Number(jsonAt(entry, 'amount')) > 0);
    }, 'the released money to be available');
    await go(page, 'Balance', 'Balance');
    await checkAccessible(t, page, 'balance');
    await page.getByRole('button', { name: 'Pay out now' }).click();
    await page.getByText(/Settlement of .* created\./).waitFor();
    await page.locator('table').nth(1).getByRole('link').first().click();
    await page.getByRole('heading', { name: /Settlement/, level: 1 }).waitFor();
    await go(page, 'Balance', 'Balance');
    await shoot(page, 'balance');

    // API keys: mint (the secret shown once), then revoke after a confirmation.
    await go(page, 'API keys', 'API keys');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Point of sale');
    await page.getByRole('dialog').getByRole('button', { name: 'Create an API key' }).click();
    const minted = (await page.locator('.secret .secret-value').textContent()) ?? '';
    t.regex(minted, /^sk_test_/);
    const prefix = minted.slice(0, 12);
    await page.getByRole('button', { name: new RegExp(`Revoke the key ${prefix}`) }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await until(async () => (await page.getByRole('row').filter({ hasText: 'Point of sale' }).count()) === 0, 'the revoked key to leave the list');
    await checkAccessible(t, page, 'api keys');
    await shoot(page, 'api-keys');
    const revoked = await fetch(`${service.baseUrl}/v1/balance`, { headers: { authorization: `Bearer ${minted}` } });
    t.is(revoked.status, 401, 'the revoked key opens nothing');

    // Webhooks: the endpoint's failed deliveries, one resent.
    await go(page, 'Webhooks', 'Webhooks');
    await page.getByRole('link', { name: 'https://hooks.siam-coffee.invalid/payments' }).click();
    await until(async () => {
      await page.reload();
      return appears(page.getByRole('cell', { name: 'Failed' }).or(page.getByRole('cell', { name: 'Pending' })));
    }, 'a delivery attempt that failed');
    const resendButtons = page.getByRole('button', { name: /Resend event/ });
    const eventId = ((await resendButtons.first().getAttribute('aria-label')) ?? '').replace('Resend event ', '');
    await resendButtons.first().click();
    await page.getByText(`Event ${eventId} is queued to be sent again.`).waitFor();
    t.true(owner.answers.some((answer) => /^2\d\d POST \/dashboard\/v1\/webhook_deliveries\/[^/]+\/resend$/.test(answer)));
    await checkAccessible(t, page, 'webhook endpoint');
    await shoot(page, 'webhook');

    // Events: each with its body.
    await go(page, 'Events', 'Events');
    await page.getByText('Event body').first().click();
    t.regex((await page.locator('pre.json').first().textContent()) ?? '', /"type": "/);
    await checkAccessible(t, page, 'events');

    // Team: add a developer with a step-up code; they claim and sign in.
    await go(page, 'Team', 'Team');
    const memberEmail = `dev-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(memberEmail);
    await page.getByLabel('Name').fill('Nok');
    await page.getByLabel('First password').fill(PASSWORD);
    await page.getByLabel('Role', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Add a member' }).click();
    const stepUp = page.getByRole('dialog');
    await stepUp.getByLabel('Your one-time code').fill(await authenticator.code(ownerSecret));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('cell', { name: new RegExp(memberEmail) }).waitFor();
    await checkAccessible(t, page, 'team');
    await shoot(page, 'team');

    const member = await openConsole({ width: 390, height: 844 });
    try {
      await claimAndSignIn(member, memberEmail, PASSWORD);
      t.true(await member.page.getByText(`${memberEmail} · Developer`).isVisible());
      t.deepEqual(member.problems, []);
    } finally {
      await member.context.close();
    }

    // The same pages on a phone: nothing needs sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [link, name] of [
      ['Payments', 'payments-390'],
      ['Balance', 'balance-390'],
    ] as const) {
      await go(page, link, link);
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      t.true(width <= 390, `${link}: no horizontal scrolling at 390 px (${width})`);
      await checkAccessible(t, page, `${link} at 390 px`);
      await shoot(page, name);
    }

    // Signing out ends the session with a clear page.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await checkAccessible(t, page, 'signed out');
    t.deepEqual(owner.problems, [], 'no script error and nothing the CSP refused');
    t.deepEqual(
      owner.answers.filter((answer) => /^5/.test(answer)),
      [],
      'no 5xx',
    );
  } finally {
    await owner.context.close();
  }
});

test.serial('a viewer sees every page and no action that would be refused', async (t) => {
  const merchant = await createMerchantWithAdmin(environment.env, { name: 'Viewer Shop', password: PASSWORD });
  const owner = await openConsole();
  const viewerEmail = `viewer-${Date.now()}@example.com`;
  try {
    const ownerSecret = await claimAndSignIn(owner, merchant.email, PASSWORD);
    await go(owner.page, 'Team', 'Team');
    await owner.page.getByLabel('Email').fill(viewerEmail);
    await owner.page.getByLabel('First password').fill(PASSWORD);
    await owner.page.getByRole('button', { name: 'Add a member' }).click();
    await owner.page
      .getByRole('dialog')
      .getByLabel('Your one-time code')
      .fill(await authenticator.code(ownerSecret));
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await owner.page.getByRole('cell', { name: new RegExp(viewerEmail) }).waitFor();
  } finally {
    await owner.context.close();
  }
  const api = merchantApi(service.baseUrl, merchant.testApiKey);
  await paidIntent(api, 9_900, 'viewer-order');

  const viewer = await openConsole();
  try {
    await claimAndSignIn(viewer, viewerEmail, PASSWORD);
    const { page } = viewer;
    const pages: [string, RegExp][] = [
      ['Payments', /Payments/],
      ['Disputes', /Disputes/],
      ['Balance', /Balance/],
      ['API keys', /API keys/],
      ['Webhooks', /Webhooks/],
      ['Events', /Events/],
      ['Team', /Team/],
      ['Settings', /Settings/],
    ];
    for (const [link, heading] of pages) {
      await go(page, link, heading);
      // Every button left is one a viewer may press: press them all (but signing out).
      const buttons = page.locator('main button:enabled');
      for (let index = 0; index < (await buttons.count()); index += 1) await buttons.nth(index).click();
      await checkAccessible(t, page, `viewer ${link}`);
    }
    await page.getByRole('link', { name: /99\.00 THB/ }).count();
    await go(page, 'Payments', /Payments/);
    await page.getByRole('link', { name: /99\.00 THB/ }).click();
    await page.getByRole('heading', { name: /99\.00 THB/, level: 1 }).waitFor();
    t.is(await page.getByRole('button', { name: 'Refund' }).count(), 0, 'no refund button for a viewer');
    t.deepEqual(
      viewer.answers.filter((answer) => answer.startsWith('403')),
      [],
      'nothing the viewer could do answered 403',
    );
    t.deepEqual(viewer.problems, []);
  } finally {
    await viewer.context.close();
  }
});

test.serial('the console speaks Thai when asked, and every word has its Thai form', async (t) => {
  const read = (file: string) =>
    [...readFileSync(join(REPO_ROOT, 'apps', 'console', 'src', 'strings', file), 'utf8').matchAll(/^ {2}'([^']+)':/gm)].map((m) => m[1]);
  t.deepEqual(read('th.ts'), read('en.ts'), 'the same keys, in the same order');
  const tab = await openConsole({ width: 390, height: 844 });
  try {
    await tab.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await tab.page.evaluate("localStorage.setItem('payments-console-language', 'th')");
    await tab.page.reload();
    await tab.page.getByRole('heading', { name: 'เข้าสู่ระบบ' }).waitFor();
    t.is(await tab.page.locator('html').getAttribute('lang'), 'th');
    await checkAccessible(t, tab.page, 'Thai sign-in at 390 px');
    await shoot(tab.page, 'sign-in-th-390');
  } finally {
    await tab.context.close();
  }
});
