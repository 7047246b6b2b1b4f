import { PaymentIntentRepository, RefundRepository, VerifyLedger, type AccountScope, type PaymentIntent } from '@payments/core';
import { apiObjectsAt, jsonAt, numberAt, objectAt, textAt, type ApiObject, type JsonObject } from './json';
import type { paymentFlow } from './payment-flow';
import type { TestApp } from './test-app';

type Flow = ReturnType<typeof paymentFlow>;

/** Every item of a `/v1` list, page after page. */
export async function listAll(flow: Flow, url: string): Promise<ApiObject[]> {
  const items: ApiObject[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await flow.get(`${url}${url.includes('?') ? '&' : '?'}limit=100${after ? `&starting_after=${after}` : ''}`);
    if (!Array.isArray(page.data)) throw new Error(`GET ${url} answered ${JSON.stringify(page)}`);
    const data = apiObjectsAt(page, 'data');
    items.push(...data);
    if (!page.has_more) return items;
    after = data.at(-1)?.id;
  }
}

/**
 * Every intent of a merchant and mode as stored: which settlement took it and when it was
 * released, which the API does not show.
 */
export async function storedIntents(t0: TestApp, scope: AccountScope): Promise<PaymentIntent[]> {
  const repository = t0.app.get<PaymentIntentRepository>(PaymentIntentRepository);
  const intents: PaymentIntent[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await repository.list(scope, {}, { limit: 100, ...(startingAfter ? { startingAfter } : {}) });
    intents.push(...page.data);
    if (!page.hasMore) return intents;
    startingAfter = page.data.at(-1)?.id;
  }
}

/** The ledger's own invariant check (`ledger verify`): every transaction balances and the balances equal the journal. */
export async function assertLedgerVerifies(t0: TestApp): Promise<void> {
  const report = await t0.app.get(VerifyLedger).execute({ limit: 10 });
  if (!report.ok) throw new Error(`ledger verify: ${JSON.stringify(report.breaks)}`);
}

/**
 * JSON whose integers may pass 2^53 − 1 (the balance sends sums exactly): every integer of 16 or
 * more digits is read as a string of its digits, so nothing is rounded on the way in.
 */
export function parseExactJson(text: string): JsonObject {
  return objectAt(JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"')));
}

/** Per currency: what a merchant's lines add up to, each bucket's moves and the net of all. */
export interface LineTotals {
  readonly pending: bigint;
  readonly available: bigint;
  readonly dispute_hold: bigint;
  readonly net: bigint;
}

/**
 * Sums balance transactions per currency, checking each line on the way: `amount − fee = net`,
 * and its three moves add up to its net. Throws naming the first line that breaks either.
 */
export function lineTotals(lines: readonly ApiObject[], who = 'lines'): Map<string, LineTotals> {
  const totals = new Map<string, LineTotals>();
  for (const line of lines) {
    const [amount, fee, net] = [numberAt(line, 'amount'), numberAt(line, 'fee'), numberAt(line, 'net')];
    const moves = {
      pending: numberAt(line, 'moves', 'pending'),
      available: numberAt(line, 'moves', 'available'),
      dispute_hold: numberAt(line, 'moves', 'dispute_hold'),
    };
    if (amount - fee !== net || moves.pending + moves.available + moves.dispute_hold !== net) {
      throw new Error(
        `${who}: ${line.id} (${String(line.type)}) shows amount ${amount}, fee ${fee}, net ${net} and moves ${JSON.stringify(moves)}, which do not add up`,
      );
    }
    const currency = textAt(line, 'currency');
    const known = totals.get(currency) ?? { pending: 0n, available: 0n, dispute_hold: 0n, net: 0n };
    totals.set(currency, {
      pending: known.pending + BigInt(moves.pending),
      available: known.available + BigInt(moves.available),
      dispute_hold: known.dispute_hold + BigInt(moves.dispute_hold),
      net: known.net + BigInt(net),
    });
  }
  return totals;
}

/**
 * The balance transactions of the key's merchant and mode against its balance, per currency: the
 * nets of all lines sum to available + pending + dispute_hold, and each bucket's moves to that
 * bucket (docs/balance-transactions.md). Answers the lines, newest first.
 */
export async function assertLinesMatchBalance(t0: TestApp, flow: Flow, key: string, who = 'lines'): Promise<ApiObject[]> {
  const lines = await listAll(flow, '/v1/balance_transactions');
  const answer = await t0.request({ method: 'GET', url: '/v1/balance', key });
  if (answer.statusCode !== 200) throw new Error(`GET /v1/balance answered ${answer.statusCode}: ${answer.payload}`);
  const balance = parseExactJson(answer.payload);
  const totals = lineTotals(lines, who);
  const buckets = ['pending', 'available', 'dispute_hold'] as const;
  const shown = (bucket: (typeof buckets)[number], currency: string): bigint => {
    const entries = jsonAt(balance, bucket);
    const entry: unknown = Array.isArray(entries) ? entries.find((one) => jsonAt(one, 'currency') === currency) : undefined;
    const amount = jsonAt(entry, 'amount');
    if (amount === undefined) return 0n;
    if ((typeof amount === 'string' && /^-?\d+$/.test(amount)) || (typeof amount === 'number' && Number.isSafeInteger(amount))) return BigInt(amount);
    throw new Error(`${who}: balance.${bucket} of ${currency} is ${JSON.stringify(amount)}, not an exact integer`);
  };
  const currencies = new Set([...totals.keys(), ...buckets.flatMap((bucket) => listOfCurrencies(jsonAt(balance, bucket)))]);
  for (const currency of currencies) {
    const sums = totals.get(currency) ?? { pending: 0n, available: 0n, dispute_hold: 0n, net: 0n };
    const held = { pending: shown('pending', currency), available: shown('available', currency), dispute_hold: shown('dispute_hold', currency) };
    for (const bucket of buckets) {
      if (sums[bucket] !== held[bucket])
        throw new Error(`${who}: the ${currency} lines move ${bucket} by ${sums[bucket]} in all, the balance holds ${held[bucket]}`);
    }
    const whole = held.pending + held.available + held.dispute_hold;
    if (sums.net !== whole) throw new Error(`${who}: the ${currency} lines net ${sums.net} in all, the balance holds ${whole}`);
  }
  return lines;
}

function listOfCurrencies(value: unknown): string[] {
  return Array.isArray(value) ? value.map((entry) => textAt(entry, 'currency')) : [];
}

export interface MerchantMoneyCheck {
  readonly scope: AccountScope;
  /** The merchant's API key of that mode: the balance is read as raw JSON with it. */
  readonly key: string;
  /** The merchant's settlement currency: its balance's buckets and every net are in it. */
  readonly currency: string;
  /**
   * Settlements already checked against the payments they cover (what a settlement covers never
   * changes), so a long run does not check each one again after every step.
   */
  readonly checkedSettlements?: Set<string>;
}

/**
 * The money invariants of one merchant and mode, each checked from another source than the
 * ledger's own tables (the API's intents, disputes, settlements and balance, and the stored
 * settlement and release marks):
 * - conservation: the buckets hold what the payments earned, less refunds (their debits, as the
 *   refunds table records them) and what left in settlements; a payment whose dispute was lost
 *   counts as minus its dispute fees, whatever else happened to it;
 * - only released, channel-settled money is paid out: each settlement covers exactly the payments
 *   that name it, and their nets make its amount, or more (a settlement nets what refunds and
 *   lost-dispute fees overdrew of available);
 * - an intent's `amount_refunded` is what its refunds that did not fail add up to, never more
 *   than its amount;
 * - no lost dispute's money reaches a payout: no settlement made after a dispute was lost covers
 *   that dispute's payment;
 * - `pending` and `dispute_hold` never go negative, and `dispute_hold` is what open disputes hold;
 * - the balance transactions add up to the balance, per bucket and in all (`assertLinesMatchBalance`).
 * Answers the intents it read (the API's and the stored), for checks of their own.
 */
export async function assertMerchantMoney(t0: TestApp, flow: Flow, check: MerchantMoneyCheck): Promise<{ intents: ApiObject[]; stored: PaymentIntent[] }> {
  const { scope, currency } = check;
  const intents = await listAll(flow, '/v1/payment_intents');
  const disputes = await listAll(flow, '/v1/disputes');
  const settlements = await listAll(flow, '/v1/settlements');
  const balanceAnswer = await t0.request({ method: 'GET', url: '/v1/balance', key: check.key });
  if (balanceAnswer.statusCode !== 200) throw new Error(`GET /v1/balance answered ${balanceAnswer.statusCode}: ${balanceAnswer.payload}`);
  const balance = parseExactJson(balanceAnswer.payload);
  const who = `${scope.merchantId} (${scope.mode}, ${currency})`;
  // Sums in BigInt: amounts near 2^53 must add up exactly here whatever the service does with them.
  const exact = (value: unknown, what: string): bigint => {
    if (value === undefined) return 0n;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw new Error(`${who}: ${what} is ${JSON.stringify(value)}, not an exact integer of minor units`);
    return BigInt(value);
  };
  const bucket = (name: string): bigint => {
    const buckets = jsonAt(balance, name);
    const money: unknown = Array.isArray(buckets) ? buckets.find((entry) => jsonAt(entry, 'currency') === currency) : undefined;
    return exact(jsonAt(money, 'amount'), `balance.${name}`);
  };
  const sum = (values: bigint[]): bigint => values.reduce((total, value) => total + value, 0n);

  const lost = disputes.filter((dp) => dp.status === 'lost');
  // A payment whose dispute was lost leaves the merchant at exactly minus the dispute fee(s),
  // whatever the order of its refunds, their failures (one failing after the loss gives its
  // debit to the platform), release, settlement and pricing: its net and refunds count for nothing.
  const lostPayments = new Set(lost.map((dp) => dp.payment_intent));
  const paid = intents.filter((pi) => (pi.status === 'succeeded' || pi.status === 'channel_settled') && pi.net && !lostPayments.has(pi.id));
  const booked = sum(paid.map((pi) => exact(jsonAt(pi, 'net', 'amount'), `${pi.id}.net`)));
  const lostMoney = sum(lost.map((dp) => exact(jsonAt(dp, 'fee', 'amount'), `${dp.id}.fee`)));
  const made = settlements.filter((st) => st.status !== 'failed');
  const outflow = sum(made.map((st) => exact(jsonAt(st, 'amount', 'amount'), `${st.id}.amount`)));
  const refunds = await listAll(flow, '/v1/refunds');
  const refundRepository = t0.app.get<RefundRepository>(RefundRepository);
  let refunded = 0n;
  for (const pi of intents) {
    const given = sum(refunds.filter((re) => re.payment_intent === pi.id && re.status !== 'failed').map((re) => exact(re.amount, `${re.id}.amount`)));
    if (given !== exact(pi.amount_refunded, `${pi.id}.amount_refunded`) || given > exact(pi.amount, `${pi.id}.amount`)) {
      throw new Error(`${who}: ${pi.id} shows amount_refunded ${String(pi.amount_refunded)} of ${String(pi.amount)}, its refunds add up to ${given}`);
    }
    if (given > 0n && !lostPayments.has(pi.id)) refunded += BigInt((await refundRepository.totalsForIntent(scope, pi.id)).debited);
  }
  const total = bucket('pending') + bucket('available') + bucket('dispute_hold');
  if (total !== booked - lostMoney - refunded - outflow) {
    const story = lost.map((dp) => {
      const pi = intents.find((intent) => intent.id === dp.payment_intent);
      const paid = pi && { id: pi.id, status: pi.status, amount: pi.amount, currency: pi.currency, net: pi.net };
      return `${dp.id} held ${JSON.stringify(dp.held)} fee ${JSON.stringify(dp.fee)} on ${JSON.stringify(paid)}`;
    });
    throw new Error(
      `${who}: buckets hold ${total}, payments ${booked} − lost ${lostMoney} − refunded ${refunded} − settled ${outflow}; lost disputes: ${story.join('; ') || 'none'}; balance ${JSON.stringify(balance)}`,
    );
  }

  const stored = await storedIntents(t0, scope);
  const lostAt = new Map(lost.filter((dp) => dp.closed_at).map((dp): [string, number] => [textAt(dp, 'payment_intent'), Date.parse(textAt(dp, 'closed_at'))]));
  for (const st of made) {
    if (check.checkedSettlements?.has(st.id)) continue;
    const covered = stored.filter((pi) => pi.settlementId === st.id);
    const wrong = covered.find((pi) => pi.status !== 'channel_settled' || !pi.releasedAt);
    if (wrong) throw new Error(`${who}: ${st.id} covers ${wrong.id}, ${wrong.status}, released ${String(wrong.releasedAt)}`);
    const worth = sum(covered.map((pi) => BigInt(pi.net?.amount ?? 0)));
    const [amount, payments, created] = [numberAt(st, 'amount', 'amount'), numberAt(st, 'payments'), textAt(st, 'created')];
    // A settlement pays what is available: its payments' nets less what available lacked, or plus
    // what it held beyond them (a failed refund's debit given back); conservation above checks the sum.
    if (amount <= 0 || covered.length !== payments)
      throw new Error(`${who}: ${st.id}: ${amount} for ${payments} payments, but covers ${covered.length} worth ${worth}`);
    const lostFirst = covered.find((pi) => (lostAt.get(pi.id) ?? Infinity) < Date.parse(created));
    if (lostFirst) throw new Error(`${who}: ${st.id} (made ${created}) pays out ${lostFirst.id}, whose dispute was lost before`);
    check.checkedSettlements?.add(st.id);
  }
  const released = sum(stored.filter((pi) => pi.status === 'channel_settled' && pi.releasedAt).map((pi) => BigInt(pi.net?.amount ?? 0)));
  if (outflow > released) throw new Error(`${who}: ${outflow} settled but only ${released} was released by channels`);
  if (bucket('pending') < 0n || bucket('dispute_hold') < 0n) throw new Error(`${who}: a bucket went negative: ${JSON.stringify(balance)}`);
  const held = sum(
    disputes.filter((dp) => dp.status === 'opened' || dp.status === 'under_review').map((dp) => exact(jsonAt(dp, 'held', 'amount'), `${dp.id}.held`)),
  );
  if (bucket('dispute_hold') !== held) throw new Error(`${who}: dispute_hold ${bucket('dispute_hold')} but open disputes hold ${held}`);
  await assertLinesMatchBalance(t0, flow, check.key, who);
  return { intents, stored };
}
