import { Ledger, PaymentAttemptRepository, type AccountScope } from '@payments/core';
import { apiObjectsAt, jsonAt, textAt, type ApiObject } from '@payments/api/dist/test/helpers/json';
import { lineTotals, listAll, parseExactJson, storedIntents, type LineTotals } from '@payments/api/dist/test/helpers/money-invariants';
import type { paymentFlow } from '@payments/api/dist/test/helpers/payment-flow';
import type { TestApp } from '@payments/api/dist/test/helpers/test-app';
import { BUCKETS, MoneyModel, type MoneyFact, type RefundVerdict } from './money-model';

/** A merchant as the watch sees it: its scope, key and settlement currency. */
export interface WatchedMerchant {
  readonly scope: AccountScope;
  readonly key: string;
  readonly currency: string;
  readonly flow: ReturnType<typeof paymentFlow>;
}

/** The service's money differs from the model's. */
export class MoneyDifference extends Error {}

/** What one observation saw happen to a merchant's settlements. */
export interface SettlementNews {
  /** Settlements made since the last observation, and what they add up to. */
  readonly created: number;
  readonly amount: bigint;
  /** Settlements that failed since the last observation. */
  readonly failed: number;
  /**
   * What payments released at or after the `period_end` of a settlement made since the last
   * observation, and covered by none, hold in available: a scheduled batch leaves them for the
   * next period.
   */
  readonly later: bigint;
}

/**
 * Feeds the independent money model (./money-model.ts) with the facts a client of the API sees
 * (intents with their `net` and `fee`, the stored release mark, refunds, disputes, settlements, and
 * duplicate payments the channel confirmed), and compares what it computes with the service's
 * balances (`GET /v1/balance`, read exactly) and ledger accounts (the balance table), account by
 * account, to the minor unit.
 *
 * Facts are read by difference with what the model already knows, so the simulator observes after
 * each action whose order matters (a refund before a dispute, …). Within one observation they
 * are applied payments, prices, disputes, refunds, releases, settlements: the orders an
 * observation can mix (a release with a refund failing, a price with a ruling) leave the same money.
 */
export class MoneyWatch {
  readonly model: MoneyModel;
  /** The compositions the history reached (a refund failing while a dispute is open, …), by name. */
  readonly reached: Record<string, number> = {};
  /**
   * Per merchant and mode, what its balance transactions read so far add up to per currency, and
   * the sequence of the newest: a line never changes what it moved, so each step reads only the
   * lines posted since the last.
   */
  private readonly lines = new Map<string, { newest: number; totals: Map<string, LineTotals> }>();

  constructor(
    private readonly t0: TestApp,
    disputeFee: number,
  ) {
    this.model = new MoneyModel({ disputeFee });
  }

  register(shop: WatchedMerchant): void {
    this.model.apply({ kind: 'merchant', merchant: shop.scope.merchantId, mode: shop.scope.mode, currency: shop.currency });
  }

  /** Reads what happened to `shops` since the last observation and feeds it to the model. */
  async observe<Shop extends WatchedMerchant>(shops: readonly Shop[]): Promise<Map<Shop, SettlementNews>> {
    const news = new Map<Shop, SettlementNews>();
    for (const shop of shops) news.set(shop, await this.observeOne(shop));
    return news;
  }

  private async observeOne(shop: WatchedMerchant): Promise<SettlementNews> {
    const { model } = this;
    const { merchantId: merchant, mode } = shop.scope;
    const apply = (fact: MoneyFact): void => {
      this.count(fact);
      model.apply(fact);
    };
    // Oldest first: the lists answer newest first.
    const intents = (await listAll(shop.flow, '/v1/payment_intents')).reverse();
    const disputes = (await listAll(shop.flow, '/v1/disputes')).reverse();
    const refunds = (await listAll(shop.flow, '/v1/refunds')).reverse();
    const settlements = (await listAll(shop.flow, '/v1/settlements')).reverse();

    for (const pi of intents) {
      if (!model.knowsPayment(pi.id))
        apply({ kind: 'payment', payment: pi.id, merchant, mode: mode, amount: units(pi.amount, `${pi.id}.amount`), currency: textAt(pi, 'currency') });
    }
    for (const pi of intents) {
      const net = jsonAt(pi, 'net');
      if (net === undefined || model.isPriced(pi.id)) continue;
      const fee = jsonAt(pi, 'fee');
      apply({
        kind: 'priced',
        payment: pi.id,
        net: units(jsonAt(net, 'amount'), `${pi.id}.net`),
        fee: fee === undefined ? 0 : units(jsonAt(fee, 'amount'), `${pi.id}.fee`),
        currency: textAt(net, 'currency'),
      });
    }
    for (const dp of disputes) {
      if (model.disputeStatus(dp.id) === undefined)
        apply({ kind: 'dispute_opened', dispute: dp.id, payment: textAt(dp, 'payment_intent'), amount: units(dp.amount, `${dp.id}.amount`) });
      if (model.disputeStatus(dp.id) === 'open' && (dp.status === 'won' || dp.status === 'lost')) apply({ kind: `dispute_${dp.status}`, dispute: dp.id });
    }
    const refundNews = (re: ApiObject): void => {
      if (re.status === 'succeeded' && model.refundStatus(re.id) === 'pending') apply({ kind: 'refund_succeeded', refund: re.id });
      if (re.status === 'failed' && model.refundStatus(re.id) !== 'failed') apply({ kind: 'refund_failed', refund: re.id });
    };
    for (const re of refunds) if (model.refundStatus(re.id) !== undefined) refundNews(re);
    for (const re of refunds) {
      if (model.refundStatus(re.id) !== undefined) continue;
      const payment = textAt(re, 'payment_intent');
      const amount = units(re.amount, `${re.id}.amount`);
      const verdict = model.refundVerdict(payment, amount);
      if (verdict.status !== 201) {
        throw new MoneyDifference(
          `the service made refund ${re.id} of ${amount} ${textAt(re, 'currency')} (${String(re.status)}), which the rules refuse (${verdict.status} ${verdict.code}); ${model.describePayment(payment)}`,
        );
      }
      apply({ kind: 'refund_made', refund: re.id, payment, amount });
      refundNews(re);
    }
    const stored = await storedIntents(this.t0, shop.scope);
    for (const pi of stored) if (pi.releasedAt && model.knowsPayment(pi.id) && !model.isReleased(pi.id)) apply({ kind: 'released', payment: pi.id });
    const laterThan = (end: number): bigint =>
      stored
        .filter((pi) => pi.releasedAt && pi.releasedAt.getTime() >= end && !pi.settlementId)
        .reduce((total, pi) => total + model.share(pi.id).available, 0n);
    let later = 0n;
    let [created, failed, sum] = [0, 0, 0n];
    for (const st of settlements) {
      if (model.settlementStatus(st.id) === undefined) {
        const amount = units(jsonAt(st, 'amount', 'amount'), `${st.id}.amount`);
        apply({ kind: 'settlement_created', settlement: st.id, merchant, mode: mode, amount, currency: textAt(st, 'amount', 'currency') });
        created += 1;
        sum += BigInt(amount);
        await checkCoverage(shop, st, BigInt(amount));
        const end = Date.parse(textAt(st, 'period_end'));
        if (laterThan(end) > later) later = laterThan(end);
      }
      if (model.settlementStatus(st.id) === 'made' && st.status === 'paid') apply({ kind: 'settlement_paid', settlement: st.id });
      if (model.settlementStatus(st.id) === 'made' && st.status === 'failed') {
        apply({ kind: 'settlement_failed', settlement: st.id });
        failed += 1;
      }
    }
    return { created, amount: sum, failed, later };
  }

  /** Counts the composition a fact makes with what its payment went through before. */
  private count(fact: MoneyFact): void {
    const { model } = this;
    const of = (payment: string | undefined): ReturnType<MoneyModel['situation']> | undefined => (payment ? model.situation(payment) : undefined);
    const where = (state: ReturnType<MoneyModel['situation']>): string =>
      state.open ? 'while disputed' : state.lost ? 'after a loss' : state.won ? 'after a win' : state.released ? 'after release' : 'before release';
    const names: string[] = [];
    if (fact.kind === 'refund_failed' || fact.kind === 'refund_succeeded') {
      const state = of(model.paymentOfRefund(fact.refund));
      if (state && model.refundStatus(fact.refund) === 'pending')
        names.push(`${fact.kind === 'refund_failed' ? 'refund failed' : 'refund succeeded'} ${where(state)}`);
    }
    if (fact.kind === 'refund_made') names.push(`refund made ${where(model.situation(fact.payment))}`);
    if (fact.kind === 'dispute_opened') {
      const state = model.situation(fact.payment);
      if (state.lost || state.won) names.push(`dispute opened again ${state.lost ? 'after a loss' : 'after a win'}`);
      if (!state.priced) names.push('dispute opened before the price');
      if (state.pendingRefunds > 0) names.push('dispute opened with a refund pending');
    }
    if (fact.kind === 'priced') {
      const state = model.situation(fact.payment);
      if (state.open || state.lost) names.push(`priced ${state.open ? 'while disputed' : 'after a loss'}`);
    }
    for (const name of names) this.reached[name] = (this.reached[name] ?? 0) + 1;
  }

  /** Second payments of an intent the channel confirmed after another paid it (the stored attempts' `duplicateOf`). */
  async observeDuplicates(shop: WatchedMerchant, intentId: string): Promise<void> {
    for (const attempt of await this.t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(shop.scope, intentId)) {
      if (attempt.status === 'succeeded' && attempt.duplicateOf && !this.model.knowsDuplicate(attempt.id)) {
        this.model.apply({ kind: 'duplicate_payment', attempt: attempt.id, mode: shop.scope.mode, amount: attempt.amount, currency: attempt.currency });
      }
    }
  }

  /** The model's last `count` moves on one of the merchant's accounts, one per line, for a report. */
  story(shop: WatchedMerchant, bucket: 'pending' | 'available' | 'dispute_hold', count = 8): string {
    const account = `m:${shop.scope.merchantId}:${shop.scope.mode}:${bucket}:${shop.currency}`;
    const moves = this.model.movesOf(account).slice(-count);
    return [`the model's last moves on ${account}:`, ...moves.map((move) => `  ${move.label}: ${JSON.stringify(move.fact)} → ${move.amount}`)].join('\n');
  }

  /** What the rules answer to a refund request (the whole remainder when `amount` is undefined). */
  refundVerdict(intentId: string, amount?: number): RefundVerdict {
    return this.model.refundVerdict(intentId, amount);
  }

  /** The merchant's available balance by the model. */
  available(shop: WatchedMerchant): bigint {
    return this.model.merchantMoney(shop.scope.merchantId, shop.scope.mode, shop.currency).available;
  }

  /**
   * What the merchant's balance transactions add up to per currency (each line checked on the way:
   * `amount − fee = net`, its moves sum to its net), reading newest first only the lines posted
   * since the last call.
   */
  private async lineTotals(shop: WatchedMerchant): Promise<Map<string, LineTotals>> {
    const key = `${shop.scope.merchantId}:${shop.scope.mode}`;
    const known = this.lines.get(key) ?? { newest: 0, totals: new Map<string, LineTotals>() };
    const fresh: ApiObject[] = [];
    let after: string | undefined;
    reading: for (;;) {
      const page = await shop.flow.get(`/v1/balance_transactions?limit=100${after ? `&starting_after=${after}` : ''}`);
      const data = apiObjectsAt(page, 'data');
      for (const line of data) {
        if (seqOf(line.id) <= known.newest) break reading;
        fresh.push(line);
      }
      if (page.has_more !== true || data.length === 0) break;
      after = data.at(-1)?.id;
    }
    const totals = new Map(known.totals);
    for (const [currency, sums] of lineTotals(fresh, `${key}'s balance transactions`)) {
      const before = totals.get(currency) ?? { pending: 0n, available: 0n, dispute_hold: 0n, net: 0n };
      totals.set(currency, {
        pending: before.pending + sums.pending,
        available: before.available + sums.available,
        dispute_hold: before.dispute_hold + sums.dispute_hold,
        net: before.net + sums.net,
      });
    }
    this.lines.set(key, { newest: fresh.length > 0 ? seqOf(fresh[0].id) : known.newest, totals });
    return totals;
  }

  /**
   * The service's balances and ledger accounts against the model's, to the minor unit: every
   * ledger account (merchants' buckets and the platform's accounts of each mode, which the
   * simulator's merchants share alone in their fresh database) and every merchant's
   * `GET /v1/balance`. Throws a MoneyDifference naming each account that differs, the model's and
   * the service's amounts, the payments that moved it and the model's last moves on it.
   */
  async compare(shops: readonly WatchedMerchant[]): Promise<void> {
    const differences: Array<{ account: string; model: bigint; service: bigint; where: string }> = [];
    const ledger = new Map<string, bigint>();
    for (const row of await this.t0.app.get<Ledger>(Ledger).balanceTable()) ledger.set(row.account, (ledger.get(row.account) ?? 0n) + row.balance);
    const expected = this.model.accounts();
    for (const account of new Set([...expected.keys(), ...ledger.keys()])) {
      const [model, service] = [expected.get(account) ?? 0n, ledger.get(account) ?? 0n];
      if (model !== service) differences.push({ account, model, service, where: 'ledger' });
    }
    for (const shop of shops) {
      // The balance transactions: per currency, each bucket's moves sum to the model's bucket, and the nets to all three.
      const { merchantId, mode } = shop.scope;
      const totals = await this.lineTotals(shop);
      for (const currency of new Set([shop.currency, ...totals.keys()])) {
        const sums = totals.get(currency) ?? { pending: 0n, available: 0n, dispute_hold: 0n, net: 0n };
        const model = this.model.merchantMoney(merchantId, mode, currency);
        for (const bucket of BUCKETS) {
          if (sums[bucket] !== model[bucket])
            differences.push({
              account: `m:${merchantId}:${mode}:${bucket}:${currency}`,
              model: model[bucket],
              service: sums[bucket],
              where: 'balance transactions',
            });
        }
        const whole = model.pending + model.available + model.dispute_hold;
        if (sums.net !== whole)
          differences.push({ account: `m:${merchantId}:${mode}:*:${currency}`, model: whole, service: sums.net, where: 'Σ net of balance transactions' });
      }
    }
    for (const shop of shops) {
      const answer = await this.t0.request({ method: 'GET', url: '/v1/balance', key: shop.key });
      if (answer.statusCode !== 200) throw new Error(`GET /v1/balance answered ${answer.statusCode}: ${answer.payload}`);
      const balance = parseExactJson(answer.payload);
      const { merchantId, mode } = shop.scope;
      const currencies = new Set([shop.currency]);
      for (const bucket of BUCKETS) for (const money of listOf(jsonAt(balance, bucket))) currencies.add(textAt(money, 'currency'));
      for (const currency of currencies) {
        const model = this.model.merchantMoney(merchantId, mode, currency);
        for (const bucket of BUCKETS) {
          const shown = listOf(jsonAt(balance, bucket)).find((money) => jsonAt(money, 'currency') === currency);
          const service = shown === undefined ? 0n : BigInt(units(jsonAt(shown, 'amount'), `balance.${bucket}`));
          if (service !== model[bucket])
            differences.push({ account: `m:${merchantId}:${mode}:${bucket}:${currency}`, model: model[bucket], service, where: 'GET /v1/balance' });
        }
      }
    }
    if (differences.length === 0) return;
    const lines = differences
      .slice(0, 8)
      .map((d) => `  ${d.account} (${d.where}): model ${d.model}, service ${d.service} (service − model = ${d.service - d.model})`);
    const first = differences[0].account;
    const moves = this.model
      .movesOf(first)
      .slice(-8)
      .map((move) => `    ${move.label}: ${JSON.stringify(move.fact)} → ${move.amount}`);
    const payments = this.model
      .paymentsOf(first)
      .slice(-4)
      .map((id) => `    ${this.model.describePayment(id)}`);
    throw new MoneyDifference(
      [
        `the service's money differs from the model's on ${differences.length} account(s):`,
        ...lines,
        `  the model's last moves on ${first}:`,
        ...moves,
        `  payments that moved it (last 4):`,
        ...payments,
      ].join('\n'),
    );
  }
}

/**
 * A settlement pays exactly what it covers: the balance transactions naming it (its own payout
 * aside) move available by its amount, and its summary leaves nothing unexplained (`other` 0).
 */
async function checkCoverage(shop: WatchedMerchant, settlement: ApiObject, amount: bigint): Promise<void> {
  let covered = 0n;
  let after: string | undefined;
  for (;;) {
    const page = await shop.flow.get(`/v1/balance_transactions?settlement=${settlement.id}&limit=100${after ? `&starting_after=${after}` : ''}`);
    const data = apiObjectsAt(page, 'data');
    for (const line of data) {
      if (line.type === 'settlement' && line.source === settlement.id) continue;
      covered += BigInt(units(jsonAt(line, 'moves', 'available'), `${line.id}.moves.available`));
    }
    if (page.has_more !== true || data.length === 0) break;
    after = data.at(-1)?.id;
  }
  const other = BigInt(units(jsonAt(settlement, 'summary', 'other'), `${settlement.id}.summary.other`));
  if (covered !== amount || other !== 0n)
    throw new MoneyDifference(
      `settlement ${settlement.id} pays ${amount}, but the balance transactions it covers move available by ${covered} and its summary leaves ${other} unexplained`,
    );
}

/** The journal sequence of a balance transaction id (`txn_<seq>`). */
function seqOf(id: string): number {
  const seq = Number(/^txn_(\d+)$/.exec(id)?.[1]);
  if (!Number.isSafeInteger(seq)) throw new Error(`${id} is no balance transaction id`);
  return seq;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** An exact integer of minor units (a string of digits when the answer passed 2^53 − 1). */
function units(value: unknown, what: string): number | bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new Error(`${what} is ${JSON.stringify(value)}, not an exact integer of minor units`);
}
