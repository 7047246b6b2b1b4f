import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'csv-parse/sync';
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
import { startWebhookReceiver, type WebhookReceiver } from '../e2e/webhook-receiver';
import { axeViolations, launchChromium, serious } from './checkout-browser';
import { englishWordsIn, headerBottom, layoutProblems } from './console-checks';

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
/** A real HTTPS endpoint the service may reach (its name resolved to 127.0.0.1 for the service alone). */
let receiver: WebhookReceiver;

test.before(async () => {
  browser = await launchChromium();
  receiver = await startWebhookReceiver();
  environment = await serviceEnvironment();
  service = await startService({ ...environment.env, ...receiver.env });
  mkdirSync(SHOTS, { recursive: true });
});

test.after.always(async () => {
  await browser?.close();
  await service?.stop();
  await environment?.cleanup();
  await receiver?.close();
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

/** Opens a page from the menu (on a phone the menu folds behind its button first). */
async function go(page: Page, link: string, heading: string | RegExp, menu = 'Menu'): Promise<void> {
  const toggle = page.getByRole('button', { name: menu, exact: true });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page
    .getByRole('navigation', { name: /^(Console|คอนโซล)$/ })
    .getByRole('link', { name: link, exact: true })
    .click();
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
    await dialog.getByLabel('Endpoint address').fill('https://hooks.siam-coffee.invalid/payments');
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
    await page.getByLabel('Order ID or payment ID').fill('ORDER-REF');
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
      return appears(page.getByRole('link', { name: 'Refund succeeded' }));
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
    const confirmPayout = page.getByRole('dialog', { name: 'Pay out now?' });
    await confirmPayout.getByText('A test payout: no money leaves').waitFor();
    await confirmPayout.getByRole('button', { name: 'Pay out' }).click();
    await page.getByText(/Settlement of .* created\./).waitFor();
    await page.locator('table').nth(1).getByRole('link').first().click();
    await page.getByRole('heading', { name: /Settlement/, level: 1 }).waitFor();
    // Its lines add up: the released payment's line and the total are the amount paid out.
    const paidOut = (await page.getByRole('heading', { name: /Settlement/, level: 1 }).textContent()) ?? '';
    const total = (await page.getByRole('row', { name: /Total paid out/ }).textContent()) ?? '';
    const released = (await page.getByRole('row', { name: /Payments released/ }).textContent()) ?? '';
    const shown = /[\d,]+\.\d{2}/.exec(paidOut)?.[0] ?? 'no amount';
    t.true(total.includes(shown) && released.includes(shown), `the lines add up to ${shown}: ${released} / ${total}`);
    await shoot(page, 'settlement-lines');
    // Its balance transactions as a spreadsheet file: the lines it covers add up to the amount shown.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    t.regex(download.suggestedFilename(), /^balance_transactions-test-\d{4}-\d{2}-\d{2}-st_[A-Z2-7]+\.csv$/);
    const bytes = readFileSync(await download.path());
    t.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a byte order mark, so a spreadsheet reads UTF-8');
    const rows: Record<string, string>[] = parse(bytes, { bom: true, columns: true });
    const covered = rows.filter((row) => row.type !== 'settlement');
    const minor = (decimal: string) => BigInt(decimal.replace(/[,.]/g, ''));
    t.true(covered.length > 0);
    t.is(
      covered.reduce((sum, row) => sum + minor(row.moves_available ?? ''), 0n),
      minor(shown),
      `the file's lines add up to the ${shown} paid out`,
    );
    t.is(minor(rows.find((row) => row.type === 'settlement')?.net ?? ''), -minor(shown), 'and its own line takes it out');
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
    const resendButtons = page.getByRole('button', { name: /^Resend / });
    const type = /^Resend (.*) \(evt_/.exec((await resendButtons.first().getAttribute('aria-label')) ?? '')?.[1] ?? '';
    await resendButtons.first().click();
    await page.getByText(`“${type}” is queued to be sent again.`).waitFor();
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
      // On a phone the person's name and role are in the menu.
      await member.page.getByRole('button', { name: 'Menu', exact: true }).click();
      t.true(await member.page.getByRole('navigation', { name: 'Console' }).getByText(`${memberEmail} · Developer`).isVisible());
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
      t.deepEqual(await layoutProblems(page), [], `${link} at 390 px`);
      await checkAccessible(t, page, `${link} at 390 px`);
      await shoot(page, name);
    }

    // Signing out ends the session with a clear page (on a phone it is in the menu).
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
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

/** Releases a paid intent's money: once the channel settled it, its release timer is moved to now and the worker releases it. */
async function release(api: ReturnType<typeof merchantApi>, intent: string): Promise<void> {
  await until(async () => textAt(await api('GET', `/v1/payment_intents/${intent}`), 'status') === 'channel_settled', `${intent} to be settled by the channel`);
  await api('POST', `/v1/test/payment_intents/${intent}/advance`, { clock: 'release' });
  await until(async () => {
    const available = jsonAt(await api('GET', '/v1/balance'), 'available');
    return Array.isArray(available) && available.some((entry) => jsonAt(entry, 'currency') === 'THB' && Number(jsonAt(entry, 'amount')) > 0);
  }, 'the released money to be available');
}

/** Sets the console's language for the next page load (as the switch in the header would). */
async function useLanguage(page: Page, language: 'en' | 'th'): Promise<void> {
  await page.evaluate(`localStorage.setItem('payments-console-language', '${language}')`);
}

/** Opens a console path and waits until its heading is there and nothing is still loading. */
async function open(page: Page, path: string): Promise<Response | null> {
  const response = await page.goto(`${service.baseUrl}/dashboard${path}`);
  await page.locator('h1').first().waitFor();
  // Polled from here: the page's policy refuses the string evaluation a waitForFunction would poll with.
  const loading = "[...document.querySelectorAll('[role=status]')].some((e) => /^(Loading…|กำลังโหลด…)$/.test(e.textContent || ''))";
  await until(async () => !(await page.evaluate<boolean>(loading)), `${path} to load`, 15_000);
  await page.evaluate('document.fonts.ready');
  return response;
}

/** A merchant with money in every state the console shows, and its owner signed in to `tab`. */
async function furnishedMerchant(tab: Tab, name: string) {
  const merchant = await createMerchantWithAdmin(environment.env, { name, password: PASSWORD });
  const api = merchantApi(service.baseUrl, merchant.testApiKey);
  const secret = await claimAndSignIn(tab, merchant.email, PASSWORD);
  const tag = Date.now().toString(36).toUpperCase();
  const refunded = await paidIntent(api, 54_000, `ORD-${tag}-24053`);
  await api('POST', '/v1/refunds', { payment_intent: refunded, amount: 10_000 });
  const failed = textAt(await api('POST', '/v1/payment_intents', { amount: 7_500, currency: 'THB', merchant_order_id: `ORD-${tag}-FAIL` }), 'id');
  await api('POST', `/v1/payment_intents/${failed}/attempts`, { payment_method: 'promptpay' });
  await api('POST', `/v1/test/payment_intents/${failed}/simulate`, { outcome: 'failed' });
  const lost = await paidIntent(api, 40_000, `DSP-${tag}-LOST`);
  await api('POST', `/v1/test/payment_intents/${lost}/simulate`, { outcome: 'dispute_opened' });
  await api('POST', `/v1/test/payment_intents/${lost}/simulate`, { outcome: 'dispute_lost' });
  const open = await paidIntent(api, 25_000, `DSP-${tag}-OPEN`);
  await api('POST', `/v1/test/payment_intents/${open}/simulate`, { outcome: 'dispute_opened' });
  await until(async () => textAt(await api('GET', `/v1/payment_intents/${failed}`), 'status') === 'failed', 'the failed payment');
  const disputes = jsonAt(await api('GET', '/v1/disputes?limit=10'), 'data');
  const disputeOf = (intent: string) =>
    textAt(
      (Array.isArray(disputes) ? disputes : []).find((d) => jsonAt(d, 'payment_intent') === intent),
      'id',
    );
  return { merchant, api, secret, tag, refunded, failed, lost, open, lostDispute: disputeOf(lost), openDispute: disputeOf(open) };
}

test.serial(
  'finance tasks: find a payment by part of its order id and by amount, filters in the address, money statuses, a failed and a disputed payment',
  async (t) => {
    const tab = await openConsole();
    const { page } = tab;
    try {
      const shop = await furnishedMerchant(tab, 'Chiang Mai Tea House');
      await go(page, 'Payments', 'Payments');

      // Part of the order id, in lower case: ORD-…-24053 is found, and the view is in the address.
      await page.getByLabel('Order ID or payment ID').fill(`ord-${shop.tag.toLowerCase()}-240`);
      await page.getByRole('button', { name: 'Apply' }).click();
      await until(async () => (await page.locator('tbody tr').count()) === 1, 'the search to narrow the list');
      const row = page.locator('tbody tr').first();
      for (const text of ['540.00 THB', 'Partially refunded', 'PromptPay']) t.true(await row.getByText(text).first().isVisible(), text);
      t.regex(page.url(), /\?q=ord-/);
      await shoot(page, 'payments-search');
      // Reload and a shared link keep the view.
      await page.reload();
      await until(async () => (await page.locator('tbody tr').count()) === 1, 'the reloaded view');
      t.is(await page.getByLabel('Order ID or payment ID').inputValue(), `ord-${shop.tag.toLowerCase()}-240`);

      // By amount, and by money status, each in the address.
      await page.goto(`${service.baseUrl}/dashboard/payments?amount=400`);
      await until(
        async () => (await page.locator('tbody tr').count()) === 1 && (await page.locator('tbody').getByText('Dispute lost').isVisible()),
        'the amount search',
      );
      await page.getByLabel('Amount').fill('');
      await page.getByLabel('Refunds and disputes').selectOption('disputed');
      await page.getByRole('button', { name: 'Apply' }).click();
      await until(
        async () => (await page.locator('tbody tr').count()) === 1 && (await page.locator('tbody').getByText('250.00 THB').isVisible()),
        'the disputed filter',
      );
      t.regex(page.url(), /money_status=disputed/);
      t.notRegex(page.url(), /amount=/);
      // Download CSV takes the filters of the address: the one disputed payment, every page of it.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      const exported: Record<string, string>[] = parse(readFileSync(await download.path()), { bom: true, columns: true });
      t.deepEqual(
        exported.map((row) => [row.id, row.amount, row.money_statuses]),
        [[shop.open, '250.00', 'disputed']],
      );
      const fee = page.locator('thead th', { hasText: 'Fee' });
      t.true(await fee.isVisible(), 'a fee column');
      t.true(await page.locator('thead th', { hasText: 'Net' }).isVisible(), 'a net column');

      // A failed payment: why, at the top; nothing to refund and no refund offered.
      await open(page, `/payments/${shop.failed}`);
      const notice = page.locator('.notice-bad');
      await notice.getByText('This payment failed.').waitFor();
      t.regex((await notice.textContent()) ?? '', /This payment failed\. \S/, 'with its reason');
      t.is(await page.getByText('Left to refund').count(), 0, 'no "left to refund" on a failed payment');
      t.is(await page.getByRole('button', { name: 'Refund' }).count(), 0);
      await shoot(page, 'payment-failed');

      // A disputed payment: no refund offered while the dispute is open.
      await open(page, `/payments/${shop.open}`);
      await page.getByText('A dispute is open on this payment').waitFor();
      t.is(await page.getByRole('button', { name: 'Refund' }).count(), 0);

      // A lost dispute says what was taken, not what is held, and no due date.
      await open(page, `/disputes/${shop.lostDispute}`);
      await page.getByText('This dispute was lost').waitFor();
      t.true(await page.getByText('Taken from your balance').isVisible());
      t.true(await page.getByText('Dispute fee').isVisible());
      t.is(await page.getByText('Held from your balance').count(), 0);
      t.is(await page.getByText('Evidence due').count(), 0);
      await shoot(page, 'dispute-lost');

      // A payment that is not there: said in words, with the way back; an unknown page is a 404 page.
      await open(page, '/payments/pi_000000000000000000000000');
      await page.getByRole('heading', { name: 'Not found', level: 1 }).waitFor();
      t.false(((await page.locator('main').textContent()) ?? '').includes('No such payment_intent'), 'not the raw API message');
      await page.getByRole('link', { name: '← Payments' }).last().click();
      await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
      const missing = await open(page, '/nowhere-at-all');
      t.is(missing?.status(), 404);
      await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      t.true(await page.getByRole('link', { name: '← Go to payments' }).isVisible());
      t.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  },
);

test.serial(
  'payouts and developers: pay out through a confirmation, a test destination checked before the code, a revoked secret gone, the delivery log, a test event, API versions',
  async (t) => {
    const tab = await openConsole();
    const { page } = tab;
    try {
      const merchant = await createMerchantWithAdmin(environment.env, { name: 'Phuket Dive Shop', password: PASSWORD });
      const api = merchantApi(service.baseUrl, merchant.testApiKey);
      const secret = await claimAndSignIn(tab, merchant.email, PASSWORD);

      // A test destination: a bad account number is caught before any code is asked for.
      await go(page, 'Settings', 'Settings');
      await page.getByLabel('Settlement schedule').selectOption('manual');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Settings saved.').waitFor();
      await page.getByLabel('Account holder').fill('Phuket Dive Shop Co.');
      await page.getByLabel('Bank code').fill('014');
      await page.getByLabel('Account number').fill('12');
      await page.getByRole('button', { name: 'Add a test destination' }).click();
      await page.getByText('The account number is 6 to 34 letters and digits').waitFor();
      t.is(await page.getByRole('dialog').count(), 0, 'no one-time code asked for');
      await page.getByLabel('Account number').fill('123-456-7890');
      await page.getByRole('button', { name: 'Add a test destination' }).click();
      const stepUp = page.getByRole('dialog');
      await stepUp.getByLabel('Your one-time code').fill(await authenticator.code(secret));
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('cell', { name: /\*+7890/ }).waitFor();
      t.true(await page.getByRole('cell', { name: 'Test destination' }).isVisible());

      // Pay out now asks first, with the amount and the masked destination.
      await release(api, await paidIntent(api, 125_050, 'dive-1'));
      await go(page, 'Balance', 'Balance');
      await page.getByRole('button', { name: 'Pay out now' }).click();
      const confirm = page.getByRole('dialog', { name: 'Pay out now?' });
      await confirm.getByText(/\*+7890/).waitFor();
      const available = (await page.locator('main table td').nth(1).textContent()) ?? '';
      t.true(((await confirm.textContent()) ?? '').includes(available), `the dialog shows the available ${available}`);
      t.true(((await page.locator('main table').first().textContent()) ?? '').includes('When you pay out'), 'the next settlement is on request');
      await shoot(page, 'payout-confirm');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      t.is(await page.getByText(/Settlement of .* created\./).count(), 0, 'cancel pays nothing');
      await page.getByRole('button', { name: 'Pay out now' }).click();
      await page.getByRole('dialog', { name: 'Pay out now?' }).getByRole('button', { name: 'Pay out' }).click();
      await page.getByText(/Settlement of .* created\./).waitFor();

      // A minted key's secret leaves the page when the key is revoked.
      await go(page, 'API keys', 'API keys');
      await page.getByRole('button', { name: 'Create an API key' }).click();
      await page.getByRole('dialog').getByLabel('Name').fill('Till');
      await page.getByRole('dialog').getByRole('button', { name: 'Create an API key' }).click();
      const minted = (await page.locator('.secret .secret-value').textContent()) ?? '';
      await page.getByRole('button', { name: new RegExp(`Revoke the key ${minted.slice(0, 12)}`) }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await until(async () => (await page.locator('.secret').count()) === 0, 'the revoked secret to leave the page');
      t.false(((await page.locator('main').textContent()) ?? '').includes(minted));

      // A restricted key: a resource at a time, None, Read or Write; the list says what it reaches in words (kept for the pages below).
      await page.getByRole('button', { name: 'Create an API key' }).click();
      const mint = page.getByRole('dialog');
      await mint.getByLabel('Name').fill('Reporting');
      await mint.getByLabel('Restricted key').check();
      await mint.getByLabel('Payment intents').selectOption('write');
      await mint.getByLabel('Balance').selectOption('read');
      await mint.getByRole('button', { name: 'Create an API key' }).click();
      const restricted = (await page.locator('.secret .secret-value').textContent()) ?? '';
      t.regex(restricted, /^rk_test_/);
      await page.getByRole('row').filter({ hasText: 'Reporting' }).getByText('Restricted: payment intents write, balance read').waitFor();
      await page.getByRole('cell', { name: 'Full access' }).first().waitFor();
      const reach = async (path: string) => (await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${restricted}` } })).status;
      t.is(await reach('/v1/balance'), 200);
      t.is(await reach('/v1/refunds'), 403, 'what it does not name is refused');

      // Webhooks: a real endpoint; what none ticked means, spelled out; API versions from the service.
      await go(page, 'Webhooks', 'Webhooks');
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Endpoint address').fill(receiver.url);
      await form.getByText(/None ticked: the \d+ types marked “sent”/).waitFor();
      t.is(await form.locator('.checks .badge').count(), 14, 'the default types are marked');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('region', { name: 'Signing secret of the endpoint' }).waitFor();
      await page.getByRole('link', { name: /hooks\.test\.example/ }).click();
      await page.getByText('None ticked: these are sent.').waitFor();
      await page.getByText('payment_intent.succeeded').waitFor();
      t.is(await page.getByText('refund.created').count(), 0, 'the refund events are not listed as sent');
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      t.deepEqual(await page.getByRole('dialog').getByLabel('API version').locator('option').allTextContents(), ['2026-09-01']);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // Send test event: the endpoint's answer at once.
      receiver.script([401]);
      await page.getByRole('button', { name: 'Send test event' }).click();
      const testing = page.getByRole('dialog', { name: 'Send test event' });
      await testing.getByLabel('Type').selectOption('payment_intent.failed');
      await testing.getByRole('button', { name: 'Send test event' }).click();
      await testing.getByText('Answered 401: not received').waitFor();
      t.true(await testing.getByText('not ok').isVisible(), "the endpoint's answer body");
      await shoot(page, 'webhook-test-event');
      await testing.getByRole('button', { name: 'Close' }).click();

      // The delivery log: event types; one delivery's body and answer.
      await api('POST', '/v1/payment_intents', { amount: 1_000, currency: 'THB', merchant_order_id: 'dive-2' }).then(async (created) => {
        await api('POST', `/v1/payment_intents/${textAt(created, 'id')}/cancel`, {});
      });
      await until(async () => {
        await page.reload();
        return appears(page.getByRole('link', { name: 'Payment canceled' }));
      }, 'the delivery of the canceled payment');
      await page.getByRole('link', { name: 'Payment canceled' }).first().click();
      await page.getByRole('heading', { name: /Payment canceled/, level: 1 }).waitFor();
      await until(async () => {
        await page.reload();
        return appears(page.getByText('Answered 200: received'));
      }, 'the delivery attempt');
      t.regex((await page.locator('pre.json').first().textContent()) ?? '', /"type": "payment_intent\.canceled"/);
      t.true(await page.getByText('ok', { exact: true }).isVisible(), "the endpoint's answer");
      await shoot(page, 'webhook-delivery');
      t.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  },
);

test.serial('errors a person understands: a wrong password says so in words, with no code', async (t) => {
  const tab = await openConsole();
  try {
    await tab.page.getByLabel('Email').fill('nobody@example.com');
    await tab.page.getByLabel('Password').fill('not the password at all');
    await tab.page.getByLabel('One-time code').fill('123456');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    const alert = tab.page.getByRole('alert');
    await alert.getByText('The email, password or one-time code is not right.').waitFor();
    t.false(((await alert.textContent()) ?? '').includes('invalid_credentials'));
  } finally {
    await tab.context.close();
  }
});

test.serial(
  'every page at 390 and 1280 px, in English and Thai: no sideways scroll, no serious accessibility problem, no text wider than its cell or broken inside a word',
  async (t) => {
    const tab = await openConsole();
    const { page } = tab;
    try {
      const shop = await furnishedMerchant(tab, 'Sukhothai Ceramics');
      await go(page, 'Settings', 'Settings');
      await page.getByLabel('Settlement schedule').selectOption('manual');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Settings saved.').waitFor();
      await release(shop.api, shop.refunded);
      const settlement = textAt(await shop.api('POST', '/v1/settlements', {}), 'id');
      // A restricted key, so the key list says what one reaches, at each width and in each language.
      await go(page, 'API keys', 'API keys');
      await page.getByRole('button', { name: 'Create an API key' }).click();
      await page.getByRole('dialog').getByLabel('Restricted key').check();
      await page.getByRole('dialog').getByLabel('Payment intents').selectOption('write');
      await page.getByRole('dialog').getByLabel('Webhook public keys').selectOption('read');
      await page.getByRole('dialog').getByRole('button', { name: 'Create an API key' }).click();
      await page.getByText('Restricted: payment intents write, webhook public keys read').waitFor();
      await go(page, 'Webhooks', 'Webhooks');
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByRole('dialog').getByLabel('Endpoint address').fill(`${receiver.url}/sukhothai/a-rather-long-path/for-a-narrow-screen`);
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await page.getByRole('region', { name: 'Signing secret of the endpoint' }).waitFor();
      await page.getByRole('link', { name: /hooks\.test\.example/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Deliveries' }).waitFor();
      const endpoint = /\/webhooks\/(we_[0-9A-Za-z]+)/.exec(page.url())?.[1] ?? '';
      await shop.api('POST', '/v1/payment_intents', { amount: 1_000, currency: 'THB', merchant_order_id: `${shop.tag}-x` }).then(async (created) => {
        await shop.api('POST', `/v1/payment_intents/${textAt(created, 'id')}/cancel`, {});
      });
      let delivery = '';
      await until(async () => {
        await page.reload();
        const link = page.getByRole('link', { name: 'Payment canceled' }).first();
        if (!(await appears(link, 2_000))) return false;
        delivery = /deliveries\/(whd_[A-Z2-7]+)/.exec((await link.getAttribute('href')) ?? '')?.[1] ?? '';
        return delivery !== '';
      }, 'a delivery');
      const events = jsonAt(await shop.api('GET', '/v1/events?limit=1'), 'data');
      const event = textAt(Array.isArray(events) ? events[0] : undefined, 'id');
      const pages: readonly (readonly [string, string])[] = [
        ['/payments', 'payments'],
        [`/payments?q=ord-${shop.tag.toLowerCase()}&money_status=partially_refunded`, 'payments-filtered'],
        [`/payments/${shop.refunded}`, 'payment'],
        [`/payments/${shop.failed}`, 'payment-failed'],
        [`/payments/${shop.lost}`, 'payment-dispute-lost'],
        ['/disputes', 'disputes'],
        [`/disputes/${shop.lostDispute}`, 'dispute-lost'],
        [`/disputes/${shop.openDispute}`, 'dispute-open'],
        ['/balance', 'balance'],
        [`/settlements/${settlement}`, 'settlement'],
        ['/developers', 'api-keys'],
        ['/webhooks', 'webhooks'],
        [`/webhooks/${endpoint}`, 'webhook'],
        [`/webhooks/${endpoint}/deliveries/${delivery}`, 'webhook-delivery'],
        ['/events', 'events'],
        [`/events/${event}`, 'event'],
        ['/team', 'team'],
        ['/settings', 'settings'],
        ['/no-such-page', 'not-found'],
      ];
      // Every problem of every page, each naming its page, width and language: one list to read.
      const failures: string[] = [];
      const signedOut = await browser.newContext({ locale: 'en-US' });
      const outside = await signedOut.newPage();
      const outsidePages: readonly (readonly [string, string])[] = [
        ['/sign-in', 'sign-in'],
        ['/claim', 'claim'],
        ['/signed-out', 'signed-out'],
      ];
      try {
        for (const language of ['en', 'th'] as const) {
          for (const viewport of [
            { width: 390, height: 844 },
            { width: 1280, height: 860 },
          ]) {
            for (const [target, paths] of [
              [page, pages],
              [outside, outsidePages],
            ] as const) {
              await target.setViewportSize(viewport);
              await target.goto(`${service.baseUrl}/dashboard/sign-in`);
              await useLanguage(target, language);
              for (const [path, name] of paths) {
                const label = `${path} at ${viewport.width} px, ${language}`;
                await open(target, path);
                const found = [
                  ...(await layoutProblems(target)),
                  ...serious(await axeViolations(target)).map(
                    (violation) => `axe ${violation.impact ?? ''} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
                  ),
                  ...(language === 'th' ? (await englishWordsIn(target)).map((word) => `English word: ${word}`) : []),
                ];
                if (viewport.width === 390 && target === page) {
                  const bottom = await headerBottom(target);
                  if (bottom > viewport.height / 4) found.push(`the header takes more than a quarter of the screen (${bottom} px)`);
                }
                failures.push(...found.map((problem) => `${label}: ${problem}`));
                if (['payments', 'payment', 'webhook-delivery', 'balance', 'dispute-lost'].includes(name) && (viewport.width === 390) === (language === 'th')) {
                  await shoot(target, `${name}-${language}-${viewport.width}`);
                }
              }
            }
          }
        }
      } finally {
        await signedOut.close();
      }
      t.deepEqual(failures, [], 'every page at every width and language');
      t.deepEqual(tab.problems, [], 'no script error and nothing the CSP refused (the font included)');
    } finally {
      await tab.context.close();
    }
  },
);
