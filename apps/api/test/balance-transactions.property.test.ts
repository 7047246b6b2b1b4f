import test from 'ava';
import fc from 'fast-check';
import {
  CreateMerchant,
  CreateScheduledSettlements,
  MAX_AMOUNT,
  PaymentAttemptRepository,
  PaySettlements,
  ReleaseFunds,
  ReportChannelSettlements,
  type AccountScope,
} from '@payments/core';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { ScriptedGateway } from './helpers/scripted-payout-gateway';
import { jsonAt, listAt, objectAt, textAt, type JsonObject } from './helpers/json';
import { parseExactJson } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp } from './helpers/test-app';
import { moneyTick, runJob } from './helpers/worker-tick';

/**
 * Random histories of one or two merchants' money (THB and SGD merchants, on the manual schedule
 * or daily; payments of 1 minor unit up to near 2^53 − 1, in the settlement currency or converted;
 * channel settlement and release; refunds whole or in part that succeed, fail or stay pending;
 * disputes opened, won and lost, and a second one on the same payment; manual and scheduled
 * settlements, and payouts that fail), driven through the routes, the test helpers and the
 * worker's jobs. After the history, read through the public API only (docs/balance-transactions.md,
 * "Invariants"; docs/settlements.md):
 * - per merchant and currency, the balance transactions (paged through) add up to the balance:
 *   Σ net to available + pending + dispute_hold, Σ moves.<bucket> to each bucket;
 * - each settlement's lines (`?settlement=st_…`, its own `settlement` line aside) move available by
 *   its amount, its summary totals them by type, no line is covered by two settlements, and the
 *   lines no settlement covers add up to the available balance;
 * - `next_settlement` is what a settlement made now (manual), or at the time it names (scheduled),
 *   pays, and 0 without `scheduled_for` when nothing would be paid.
 *
 * Replay a failure with BALANCE_PROPERTY_SEED and BALANCE_PROPERTY_PATH from its report
 * (BALANCE_PROPERTY_SHRINK=1 shrinks it, slowly); BALANCE_PROPERTY_RUNS sets the number of runs.
 */

const clock = new FakeClock(new Date());
const gateway = new ScriptedGateway();
let t0: TestApp;

test.before(async () => {
  t0 = await startTestApp({ clock, payoutGateway: gateway });
});
test.after.always(async () => t0?.close());

const tick = moneyTick(() => t0, clock);

/** What the runs reached, logged, so a change that stops the histories reaching a case shows. */
const reached = {
  payments: 0,
  nearMax: 0,
  converted: 0,
  refunds: 0,
  refundsFailed: 0,
  disputesWon: 0,
  disputesLost: 0,
  secondDisputes: 0,
  settlements: 0,
  settlementsRefused: 0,
  payoutsFailed: 0,
  scheduledBatches: 0,
  forecastsPositive: 0,
  forecastsZero: 0,
  forecastsOverdue: 0,
  hugeSettlements: 0,
  lines: 0,
};

type Currency = 'THB' | 'SGD';
type Schedule = 'manual' | 'daily';

interface ShopConfig {
  readonly currency: Currency;
  readonly schedule: Schedule;
  readonly delayDays: number;
}

interface Shop extends ShopConfig {
  readonly name: string;
  readonly scope: AccountScope;
  readonly key: string;
  readonly flow: ReturnType<typeof paymentFlow>;
  /** Intents paid in this run, oldest first. */
  readonly paid: string[];
  /** Refunds made in this run, oldest first. */
  readonly refunds: string[];
  /** Intents with a dispute opened and not ruled yet. */
  readonly disputed: Set<string>;
  /** Intents whose dispute was lost. */
  readonly lost: Set<string>;
}

type Size = 'one' | 'small' | 'large' | 'max';
type Via = 'local' | 'qr_fx' | 'wallet_fx';
type Payout = 'paid' | 'failed';

type Step =
  | { kind: 'pay'; shop: number; size: Size; via: Via; digits: number; release: boolean }
  | { kind: 'tick' }
  | { kind: 'report' }
  | { kind: 'wait'; hours: number }
  | { kind: 'release'; shop: number; pick: number }
  | { kind: 'refund'; shop: number; pick: number; part: 'whole' | 'share' | 'one'; percent: number; then: 'succeeded' | 'failed' | 'pending' }
  | { kind: 'refund_outcome'; shop: number; pick: number; outcome: 'succeeded' | 'failed' }
  | { kind: 'dispute'; shop: number; pick: number; outcome: 'dispute_opened' | 'dispute_won' | 'dispute_lost' }
  | { kind: 'dispute_round'; shop: number; pick: number; ruling: 'dispute_won' | 'dispute_lost' }
  | { kind: 'dispute_after_loss'; shop: number; pick: number; ruling: 'won' | 'lost' }
  | { kind: 'settle'; shop: number; payout: Payout }
  | { kind: 'midnight'; payout: Payout };

const shopIndex = fc.nat({ max: 1 });
const pick = fc.nat({ max: 20 });
const payout = fc.constantFrom<Payout>('paid', 'paid', 'failed');
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      shop: shopIndex,
      size: fc.constantFrom<Size>('one', 'small', 'small', 'large', 'max'),
      via: fc.constantFrom<Via>('local', 'local', 'qr_fx', 'wallet_fx'),
      digits: fc.nat({ max: 999_999 }),
      release: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('report' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('release' as const), shop: shopIndex, pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      shop: shopIndex,
      pick,
      part: fc.constantFrom('whole' as const, 'share' as const, 'one' as const),
      percent: fc.integer({ min: 1, max: 99 }),
      then: fc.constantFrom('succeeded' as const, 'failed' as const, 'pending' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('refund_outcome' as const),
      shop: shopIndex,
      pick,
      outcome: fc.constantFrom('succeeded' as const, 'failed' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      shop: shopIndex,
      pick: fc.nat({ max: 3 }),
      outcome: fc.constantFrom('dispute_opened' as const, 'dispute_opened' as const, 'dispute_won' as const, 'dispute_lost' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('dispute_round' as const),
      shop: shopIndex,
      pick: fc.nat({ max: 3 }),
      ruling: fc.constantFrom('dispute_won' as const, 'dispute_lost' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('dispute_after_loss' as const), shop: shopIndex, pick, ruling: fc.constantFrom('won' as const, 'lost' as const) }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('settle' as const), shop: shopIndex, payout }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('midnight' as const), payout }) },
);

const shopConfig: fc.Arbitrary<ShopConfig> = fc.record({
  currency: fc.constantFrom<Currency>('THB', 'SGD'),
  schedule: fc.constantFrom<Schedule>('manual', 'daily'),
  delayDays: fc.constantFrom(0, 0, 1, 2),
});

const history = fc.record({
  shops: fc.array(shopConfig, { minLength: 1, maxLength: 2 }),
  steps: fc.array(step, { minLength: 8, maxLength: 40, size: 'max' }),
  /** The page size the checks read every list with, so the cursors are followed. */
  pageSize: fc.integer({ min: 3, max: 30 }),
  /**
   * Whether the history ends with a settlement asked, to hold `next_settlement` to it: now; after
   * the channel settled what was paid, before the release job ran (payments due for release are
   * then in a daily merchant's next batch); or once the day ended with no worker pass since (the
   * batch of that day is then due).
   */
  askAtEnd: fc.constantFrom('now' as const, 'after_report' as const, 'past_midnight' as const, 'no' as const),
});

async function newShop(config: ShopConfig, index: number): Promise<Shop> {
  const suffix = unique('lines');
  const created = await t0.app.get(CreateMerchant).execute({
    name: `Shop ${suffix}`,
    email: `${suffix}@example.com`,
    password: 'correct horse battery',
    settlementCurrency: config.currency,
    settlementSchedule: config.schedule,
    settlementDelayDays: config.delayDays,
  });
  const key = created.testApiKey.secret;
  return {
    ...config,
    name: `shop ${index} (${created.merchant.id}, ${config.currency}, ${config.schedule})`,
    scope: { merchantId: created.merchant.id, mode: 'test' },
    key,
    flow: paymentFlow(t0, key),
    paid: [],
    refunds: [],
    disputed: new Set(),
    lost: new Set(),
  };
}

/** An item of `list`, counting back from the newest (small picks favour recent ones). */
function chosen(list: readonly string[], index: number): string | undefined {
  return list.length === 0 ? undefined : list[list.length - 1 - (index % list.length)];
}

/**
 * The last two digits of an amount choose a simulator outcome when they are 01–05: such amounts
 * (but 1 itself) are moved up to end in 10, still at most 2^53 − 1 (which ends in 91).
 */
function plain(amount: number): number {
  const last = amount % 100;
  return amount !== 1 && last >= 1 && last <= 5 ? amount - last + 10 : amount;
}

/** The payer's currency and method for a payment to a merchant of `currency`. */
function method(currency: Currency, via: Via): { currency: string; payment_method: string } {
  if (via === 'wallet_fx') return { currency: 'USD', payment_method: 'alipay_plus' };
  const qr = { THB: 'promptpay', SGD: 'paynow' } as const;
  const payer = via === 'local' ? currency : currency === 'THB' ? 'SGD' : 'THB';
  return { currency: payer, payment_method: qr[payer] };
}

function amountOf(size: Size, via: Via, digits: number): number {
  switch (size) {
    case 'one':
      return 1;
    case 'small':
      return plain(2 + (digits % 99_999));
    case 'large':
      return plain(1_000_000 + digits * 1_000_003);
    case 'max':
      // Near 2^53 − 1 in the settlement currency; an intent to convert may reach half of it in the
      // settlement currency only (docs/fx.md), so a converted one stays well below.
      return plain((via === 'local' ? MAX_AMOUNT : 100_000_000_000_000) - (digits % 1000));
  }
}

/** Answers a step may get: anything else (a 5xx, a 400 for a request the test made well) fails the run. */
function expect(what: string, res: { statusCode: number; payload: string }, ...codes: number[]): void {
  if (!codes.includes(res.statusCode)) throw new Error(`${what} answered ${res.statusCode}: ${res.payload.slice(0, 400)}`);
}

async function run(shops: Shop[], action: Step): Promise<void> {
  if (action.kind === 'tick') return tick();
  if (action.kind === 'report') return channelReport();
  if (action.kind === 'wait') {
    clock.advance(action.hours * 3_600_000);
    return tick();
  }
  if (action.kind === 'midnight') return midnight(action.payout);
  const shop = shops[action.shop % shops.length];
  const { flow } = shop;
  switch (action.kind) {
    case 'pay': {
      const amount = amountOf(action.size, action.via, action.digits);
      const payer = method(shop.currency, action.via);
      const created = await flow.post('/v1/payment_intents', { amount, ...payer, merchant_order_id: unique('order') });
      expect(`create ${amount} ${payer.currency}`, created, 201);
      const id = textAt(created.result, 'id');
      expect('attempt', await flow.attempt(id, { payment_method: payer.payment_method }), 201);
      const paid = await flow.simulate(id, { outcome: 'succeeded' });
      expect('simulate succeeded', paid, 200);
      if (jsonAt(paid.result, 'status') !== 'succeeded') throw new Error(`the payment did not succeed: ${paid.payload}`);
      shop.paid.push(id);
      reached.payments += 1;
      if (action.size === 'max' && action.via === 'local') reached.nearMax += 1;
      if (action.via !== 'local') reached.converted += 1;
      // Half the payments are taken on to available: channel settlement, then the release timer.
      if (action.release) await run(shops, { kind: 'release', shop: action.shop, pick: 0 });
      return;
    }
    case 'release': {
      const id = chosen(shop.paid, action.pick);
      if (!id) return;
      for (let i = 0; i < 3 && (await flow.intent(id)).status !== 'channel_settled'; i += 1) await tick();
      expect('advance release', await flow.advance(id, 'release'), 200, 409);
      return tick();
    }
    case 'refund': {
      const id = chosen(shop.paid, action.pick);
      if (!id) return;
      const intent = await flow.intent(id);
      const left = Number(intent.amount) - Number(intent.amount_refunded ?? 0);
      const amount = action.part === 'whole' ? undefined : action.part === 'one' ? 1 : Math.max(1, Math.floor((left * action.percent) / 100));
      const made = await flow.post('/v1/refunds', { payment_intent: id, ...(amount === undefined ? {} : { amount }) });
      expect(`refund ${amount ?? 'whole'} of ${id}`, made, 201, 409);
      if (made.statusCode !== 201) return;
      const refund = textAt(made.result, 'id');
      shop.refunds.push(refund);
      reached.refunds += 1;
      if (action.then !== 'pending') await settleRefund(shop, refund, action.then);
      return;
    }
    case 'refund_outcome': {
      const refund = chosen(shop.refunds, action.pick);
      if (refund) await settleRefund(shop, refund, action.outcome);
      return;
    }
    case 'dispute': {
      const open = [...shop.disputed];
      // A ruling aims at an open dispute when there is one (else it meets the 409).
      const id = action.outcome !== 'dispute_opened' && open.length > 0 ? open[action.pick % open.length] : chosen(shop.paid, action.pick);
      if (!id) return;
      const res = await flow.simulate(id, { outcome: action.outcome });
      expect(`${action.outcome} on ${id}`, res, 200, 409);
      if (res.statusCode !== 200) return;
      if (action.outcome === 'dispute_opened') shop.disputed.add(id);
      else shop.disputed.delete(id);
      if (action.outcome === 'dispute_lost') {
        shop.lost.add(id);
        reached.disputesLost += 1;
      }
      if (action.outcome === 'dispute_won') reached.disputesWon += 1;
      return;
    }
    case 'dispute_round': {
      // A dispute opened and ruled on one payment: a payment picked again gets a second one.
      await run(shops, { kind: 'dispute', shop: action.shop, pick: action.pick, outcome: 'dispute_opened' });
      return run(shops, { kind: 'dispute', shop: action.shop, pick: action.pick, outcome: action.ruling });
    }
    case 'dispute_after_loss': {
      // The payer disputes a payment again after losing: the channel opens a second dispute and
      // rules on it (the service's simulate route refuses to open one after a loss; a channel does not ask).
      const id = chosen([...shop.lost], action.pick);
      if (!id) return;
      const attempts = await t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(shop.scope, id);
      const order = attempts.find((attempt) => attempt.status === 'succeeded')?.channelOrderId;
      if (!order) return;
      const channel = t0.app.get(SimulatorPaymentChannel);
      await channel.simulateDispute('test', order, 'opened');
      await channel.simulateDispute('test', order, action.ruling);
      reached.secondDisputes += 1;
      return;
    }
    case 'settle': {
      // A merchant on a schedule may not ask (403); its money leaves in the midnight batches.
      if (shop.schedule !== 'manual') return;
      gateway.next = action.payout === 'failed' ? { status: 'failed', failureReason: 'account_closed' } : { status: 'paid' };
      try {
        const res = await flow.post('/v1/settlements');
        expect('pay out now', res, 201, 409);
        if (res.statusCode === 201) {
          reached.settlements += 1;
          if (jsonAt(res.result, 'status') === 'failed') reached.payoutsFailed += 1;
        } else reached.settlementsRefused += 1;
      } finally {
        gateway.next = { status: 'paid' };
      }
      return;
    }
  }
}

async function settleRefund(shop: Shop, refund: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const res = await shop.flow.post(`/v1/test/refunds/${refund}/simulate`, { outcome });
  // 409: the channel settled it already (declined at once, or reported on a tick).
  expect(`refund ${refund} ${outcome}`, res, 200, 409);
  if (res.statusCode === 200 && outcome === 'failed') reached.refundsFailed += 1;
}

/**
 * A worker tick before its release job has run: the channel settles what was paid a tick ago, and
 * those payments wait for their release (due at once with no settlement delay).
 */
async function channelReport(): Promise<void> {
  clock.advance(1000);
  await t0.app.get(SimulatorPaymentChannel).tick(500);
  await runJob(t0.app, ReportChannelSettlements);
}

/** The next UTC midnight after `at`. */
function nextMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

/** The worker's pass just after midnight: the scheduled batches of the day that ended, then their payouts. */
async function midnight(outcome: Payout): Promise<void> {
  clock.set(new Date(nextMidnight(clock.now()).getTime() + 30_000));
  await tick();
  await scheduledPass(outcome);
}

async function scheduledPass(outcome: Payout): Promise<void> {
  await runJob(t0.app, CreateScheduledSettlements, 100_000);
  gateway.next = outcome === 'failed' ? { status: 'failed', failureReason: 'account_closed' } : { status: 'paid' };
  try {
    const { outcomes } = await runJob(t0.app, PaySettlements, 100_000);
    if (outcome === 'failed') reached.payoutsFailed += outcomes.length;
  } finally {
    gateway.next = { status: 'paid' };
  }
}

// ---------------------------------------------------------------------------------------------
// Reading through the public API

/** An answer's JSON read exactly: integers past 2^53 − 1 (a balance, a summary's sums) as digit strings. */
async function read(shop: Shop, url: string): Promise<JsonObject> {
  const res = await t0.request({ method: 'GET', url, key: shop.key });
  if (res.statusCode !== 200) throw new Error(`${shop.name}: GET ${url} answered ${res.statusCode}: ${res.payload.slice(0, 400)}`);
  return parseExactJson(res.payload);
}

/** Every item of a list, following `starting_after` page by page of `pageSize`. */
async function everyItem(shop: Shop, url: string, pageSize: number): Promise<JsonObject[]> {
  const items: JsonObject[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await read(shop, `${url}${url.includes('?') ? '&' : '?'}limit=${pageSize}${after ? `&starting_after=${after}` : ''}`);
    const data = listAt(page, 'data').map((item) => objectAt(item));
    if (data.length > pageSize) throw new Error(`${shop.name}: ${url} answered ${data.length} items for limit ${pageSize}`);
    items.push(...data);
    if (page.has_more !== true) break;
    if (data.length === 0) throw new Error(`${shop.name}: ${url} answered an empty page that has more`);
    after = textAt(data.at(-1), 'id');
  }
  const ids = items.map((item) => textAt(item, 'id'));
  if (new Set(ids).size !== ids.length) throw new Error(`${shop.name}: paging ${url} by ${pageSize} repeats an item: ${ids.join(' ')}`);
  return items;
}

/** An amount as the API sent it (a number, or the digits of one past 2^53 − 1), exactly. */
function exact(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new Error(`${what} is ${JSON.stringify(value)}, not an exact integer`);
}

const BUCKETS = ['pending', 'available', 'dispute_hold'] as const;
type Bucket = (typeof BUCKETS)[number];
type Totals = Record<Bucket | 'net', bigint>;
const zero = (): Totals => ({ pending: 0n, available: 0n, dispute_hold: 0n, net: 0n });

/** What one line shows, checked on its own: amount − fee = net, its moves sum to its net. */
interface Line {
  readonly id: string;
  readonly type: string;
  readonly source: string;
  readonly currency: string;
  readonly paymentIntent?: string;
  readonly settlement?: string;
  readonly moves: Totals;
  readonly fee: bigint;
  readonly amount: bigint;
}

function lineOf(line: JsonObject, who: string): Line {
  const id = textAt(line, 'id');
  const [amount, fee, net] = [exact(line.amount, `${who} ${id}.amount`), exact(line.fee, `${who} ${id}.fee`), exact(line.net, `${who} ${id}.net`)];
  const moves = { ...zero(), net };
  for (const bucket of BUCKETS) moves[bucket] = exact(jsonAt(line, 'moves', bucket), `${who} ${id}.moves.${bucket}`);
  if (amount - fee !== net) throw new Error(`${who}: ${id} shows amount ${amount} − fee ${fee} ≠ net ${net}: ${JSON.stringify(line)}`);
  if (moves.pending + moves.available + moves.dispute_hold !== net)
    throw new Error(`${who}: ${id}'s moves do not add up to its net ${net}: ${JSON.stringify(line)}`);
  const settlement = line.settlement === undefined ? undefined : textAt(line, 'settlement');
  const paymentIntent = line.payment_intent === undefined ? undefined : textAt(line, 'payment_intent');
  return {
    id,
    type: textAt(line, 'type'),
    source: textAt(line, 'source'),
    currency: textAt(line, 'currency'),
    ...(paymentIntent ? { paymentIntent } : {}),
    ...(settlement ? { settlement } : {}),
    moves,
    fee,
    amount,
  };
}

/** The balance's three buckets per currency, exactly. */
function bucketsOf(balance: JsonObject, who: string): Map<string, Totals> {
  const held = new Map<string, Totals>();
  for (const bucket of BUCKETS) {
    for (const entry of listAt(balance, bucket)) {
      const currency = textAt(entry, 'currency');
      const totals = held.get(currency) ?? zero();
      totals[bucket] = exact(jsonAt(entry, 'amount'), `${who}: balance.${bucket} ${currency}`);
      totals.net = totals.pending + totals.available + totals.dispute_hold;
      held.set(currency, totals);
    }
  }
  return held;
}

/**
 * The invariants of docs/balance-transactions.md and docs/settlements.md over everything the
 * merchant's key reads: its lines against its balance, and each settlement against its lines.
 */
async function checkBooks(shop: Shop, pageSize: number): Promise<void> {
  const who = shop.name;
  const lines = (await everyItem(shop, '/v1/balance_transactions', pageSize)).map((line) => lineOf(line, who));
  reached.lines += lines.length;
  const balance = await read(shop, '/v1/balance');
  const held = bucketsOf(balance, who);

  // Σ of the lines per currency against the balance, in all and bucket by bucket.
  const summed = new Map<string, Totals>();
  for (const line of lines) {
    const totals = summed.get(line.currency) ?? zero();
    for (const key of [...BUCKETS, 'net'] as const) totals[key] += line.moves[key];
    summed.set(line.currency, totals);
  }
  for (const line of lines) {
    if (line.currency !== shop.currency) throw new Error(`${who}: ${line.id} moved ${line.currency}; the merchant's money is in ${shop.currency}`);
  }
  for (const currency of new Set([...summed.keys(), ...held.keys()])) {
    const [sums, shown] = [summed.get(currency) ?? zero(), held.get(currency) ?? zero()];
    if (sums.net !== shown.net)
      throw new Error(`${who}: the ${currency} lines net ${sums.net} in all, the balance holds ${shown.net} (${JSON.stringify(balance)})`);
    for (const bucket of BUCKETS) {
      if (sums[bucket] !== shown[bucket])
        throw new Error(`${who}: the ${currency} lines move ${bucket} by ${sums[bucket]}, the balance holds ${shown[bucket]}`);
    }
  }

  // Each settlement: the lines that name it add up to its amount; none is another's.
  const byId = new Map(lines.map((line) => [line.id, line]));
  const coveredBy = new Map<string, string>();
  for (const settlement of await everyItem(shop, '/v1/settlements', pageSize)) {
    const st = textAt(settlement, 'id');
    const amount = exact(jsonAt(settlement, 'amount', 'amount'), `${who}: ${st}.amount`);
    if (amount > BigInt(MAX_AMOUNT) / 2n) reached.hugeSettlements += 1;
    if (textAt(settlement, 'amount', 'currency') !== shop.currency) throw new Error(`${who}: ${st} pays ${JSON.stringify(settlement.amount)}`);
    const covered = (await everyItem(shop, `/v1/balance_transactions?settlement=${st}`, pageSize)).map((line) => lineOf(line, who));
    const own = covered.filter((line) => line.type === 'settlement' && line.source === st);
    if (own.length !== 1 || own[0].moves.available !== -amount)
      throw new Error(`${who}: ${st} of ${amount} lists its own payout line as ${JSON.stringify(own)}`);
    const paid = covered.filter((line) => line !== own[0]);
    const byType = new Map<string, { count: number; amount: bigint }>();
    let total = 0n;
    for (const line of covered) {
      if (line.settlement !== st) throw new Error(`${who}: ${line.id} is listed under ${st} but names ${line.settlement ?? 'no settlement'}`);
      const known = byId.get(line.id);
      if (!known || known.settlement !== st) throw new Error(`${who}: ${line.id} under ${st} reads ${JSON.stringify(known)} in the whole list`);
      const other = coveredBy.get(line.id);
      if (other) throw new Error(`${who}: ${line.id} is covered by ${other} and by ${st}`);
      coveredBy.set(line.id, st);
    }
    for (const line of paid) {
      total += line.moves.available;
      const group = byType.get(line.type) ?? { count: 0, amount: 0n };
      byType.set(line.type, { count: group.count + 1, amount: group.amount + line.moves.available });
    }
    // A settlement pays movements of available money: its lines' nets differ from their moves of
    // available where a line also moved another bucket (a hold of released money nets 0).
    if (total !== amount) {
      throw new Error(
        `${who}: the lines of ${st} move available by ${total}, it pays ${amount}: ${JSON.stringify(paid, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))}`,
      );
    }
    // Its summary is the same lines, totalled by type, with nothing left over.
    const summary = objectAt(settlement, 'summary');
    if (exact(summary.other, `${who}: ${st}.summary.other`) !== 0n) throw new Error(`${who}: ${st} has summary.other ${String(summary.other)}`);
    for (const [type, group] of Object.entries(objectAt(summary, 'lines'))) {
      const expected = byType.get(type) ?? { count: 0, amount: 0n };
      byType.delete(type);
      const [count, sum] = [exact(jsonAt(group, 'count'), `${st}.summary.${type}.count`), exact(jsonAt(group, 'amount'), `${st}.summary.${type}.amount`)];
      if (count !== BigInt(expected.count) || sum !== expected.amount)
        throw new Error(`${who}: ${st}'s summary shows ${type} ${count} lines of ${sum}, its lines are ${expected.count} of ${expected.amount}`);
    }
    if (byType.size > 0) throw new Error(`${who}: ${st} covers lines of types its summary lacks: ${[...byType.keys()].join(', ')}`);
    // The released payments' figures are those of their `payment` lines.
    const booked = paid
      .filter((line) => line.type === 'release')
      .flatMap((release) => lines.filter((line) => line.type === 'payment' && line.paymentIntent === release.paymentIntent))
      .reduce((sum, line) => ({ gross: sum.gross + line.amount, fee: sum.fee + line.fee, net: sum.net + line.moves.net }), { gross: 0n, fee: 0n, net: 0n });
    for (const figure of ['gross', 'fee', 'net'] as const) {
      const shown = exact(jsonAt(summary, 'lines', 'release', figure), `${st}.summary.release.${figure}`);
      if (shown !== booked[figure])
        throw new Error(`${who}: ${st}'s summary shows release ${figure} ${shown}, the payment lines of its releases ${booked[figure]}`);
    }
  }
  for (const line of lines) {
    if (line.settlement !== undefined && coveredBy.get(line.id) !== line.settlement)
      throw new Error(`${who}: ${line.id} names ${line.settlement}, whose lines do not list it`);
  }
  // What no settlement covers is what is available (each settlement's lines and its own line net to 0).
  const uncovered = lines.filter((line) => line.settlement === undefined).reduce((sum, line) => sum + line.moves.available, 0n);
  const available = held.get(shop.currency)?.available ?? 0n;
  if (uncovered !== available) throw new Error(`${who}: the lines no settlement covers move available by ${uncovered}, the balance holds ${available}`);
}

/** Settlement ids of the shop, as listed now. */
async function settlementIds(shop: Shop): Promise<Set<string>> {
  return new Set((await everyItem(shop, '/v1/settlements', 100)).map((st) => textAt(st, 'id')));
}

/**
 * `next_settlement` against a settlement made: asked now (manual), or by the worker's pass at the
 * moment it names, once the payments due by then are released (scheduled). Absent money shows as
 * 0 with no `scheduled_for`.
 */
async function checkNextSettlement(shop: Shop): Promise<void> {
  const who = shop.name;
  const forecasts = listAt(await read(shop, '/v1/balance'), 'next_settlement').map((entry) => objectAt(entry));
  for (const other of forecasts.filter((entry) => entry.currency !== shop.currency)) {
    if (exact(other.amount, `${who}: next_settlement ${String(other.currency)}`) !== 0n)
      throw new Error(`${who}: settles only ${shop.currency}, yet shows ${JSON.stringify(other)}`);
  }
  const mine = forecasts.find((entry) => entry.currency === shop.currency);
  if (!mine) throw new Error(`${who}: no next_settlement in ${shop.currency}: ${JSON.stringify(forecasts)}`);
  const amount = exact(mine.amount, `${who}: next_settlement.amount`);
  const scheduledFor = mine.scheduled_for === undefined ? undefined : textAt(mine, 'scheduled_for');
  if (amount < 0n) throw new Error(`${who}: next_settlement is negative: ${JSON.stringify(mine)}`);
  if (amount === 0n && scheduledFor !== undefined) throw new Error(`${who}: next_settlement of 0 is scheduled: ${JSON.stringify(mine)}`);
  if (amount === 0n) reached.forecastsZero += 1;
  else reached.forecastsPositive += 1;

  if (shop.schedule === 'manual') {
    if (mine.trigger !== 'manual' || scheduledFor !== undefined) throw new Error(`${who}: a manual merchant's next settlement reads ${JSON.stringify(mine)}`);
    const res = await shop.flow.post('/v1/settlements');
    expect('pay out now', res, 201, 409);
    const made = res.statusCode === 201 ? exact(jsonAt(res.result, 'amount', 'amount'), `${who}: settlement amount`) : 0n;
    if (made !== amount)
      throw new Error(`${who}: next_settlement showed ${amount}, pay out now ${res.statusCode === 201 ? `paid ${made}` : `answered ${res.payload}`}`);
    return;
  }

  if (mine.trigger !== 'scheduled' || (amount > 0n && scheduledFor === undefined))
    throw new Error(`${who}: a daily merchant's next settlement reads ${JSON.stringify(mine)}`);
  const before = await settlementIds(shop);
  const when = scheduledFor === undefined ? nextMidnight(clock.now()) : new Date(scheduledFor);
  if (when.getTime() <= clock.now().getTime()) reached.forecastsOverdue += 1;
  else {
    // The payments whose release is due before then are released by then; nothing else happens.
    clock.set(new Date(when.getTime() - 1));
    await runJob(t0.app, ReleaseFunds);
    clock.set(new Date(when.getTime() + 30_000));
  }
  await scheduledPass('paid');
  const batches = (await everyItem(shop, '/v1/settlements', 100)).filter((st) => !before.has(textAt(st, 'id')));
  reached.scheduledBatches += batches.length;
  const made = batches.reduce((sum, st) => sum + exact(jsonAt(st, 'amount', 'amount'), `${who}: ${textAt(st, 'id')}.amount`), 0n);
  if (made !== amount)
    throw new Error(
      `${who}: next_settlement showed ${amount} for ${scheduledFor ?? 'no time'}, the worker's pass then made ${batches.length} batches of ${made}`,
    );
}

test.serial('balance transactions add up to the balance and to each settlement, and next_settlement is what a settlement pays', async (t) => {
  const details = await fc.check(
    fc.asyncProperty(history, async ({ shops: configs, steps, pageSize, askAtEnd }) => {
      const shops: Shop[] = [];
      for (const [index, config] of configs.entries()) shops.push(await newShop(config, index));
      for (const [index, action] of steps.entries()) {
        try {
          await run(shops, action);
        } catch (error) {
          throw new Error(`step ${index} ${JSON.stringify(action)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      for (const shop of shops) await checkBooks(shop, pageSize);
      if (askAtEnd === 'no') return;
      if (askAtEnd === 'after_report') await channelReport();
      if (askAtEnd === 'past_midnight') clock.set(new Date(nextMidnight(clock.now()).getTime() + 60_000));
      for (const shop of shops) {
        await checkNextSettlement(shop);
        await checkBooks(shop, pageSize);
      }
    }),
    {
      numRuns: Number(process.env.BALANCE_PROPERTY_RUNS ?? 25),
      endOnFailure: !process.env.BALANCE_PROPERTY_SHRINK,
      // Replays a failure: BALANCE_PROPERTY_SEED and BALANCE_PROPERTY_PATH from the report.
      ...(process.env.BALANCE_PROPERTY_SEED ? { seed: Number(process.env.BALANCE_PROPERTY_SEED), path: process.env.BALANCE_PROPERTY_PATH } : {}),
    },
  );
  t.log(`reached: ${JSON.stringify(reached)}`);
  const failure = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  t.false(details.failed, `${failure}\n${fc.defaultReportMessage(details)}`);
});
