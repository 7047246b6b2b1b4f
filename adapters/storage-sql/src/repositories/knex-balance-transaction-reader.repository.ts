import {
  parseAccountCode,
  TYPE_CAUSES,
  TYPED_CAUSES,
  type AccountScope,
  type BalanceTransactionFilter,
  type BalanceTransactionReader,
  type JournalPageRequest,
  type JournalRecord,
  type JournalRecordEntry,
  type Page,
} from '@payments/core';
import type { Knex } from 'knex';
import type { KnexContext } from '../knex-context';
import { INLINE } from '../sql-statements';
import { fromJson, toNumber, toOptionalDate, type BigIntValue } from '../mapping/column-values';

/** A journal transaction with what its line needs of the payment and refund it concerns (one row per line). */
interface LineRow {
  seq: BigIntValue;
  cause_type: string;
  cause_id: string;
  payment_intent_id: string | null;
  created_at: BigIntValue;
  pi_amount: BigIntValue | null;
  pi_currency: string | null;
  pi_fx: string | null;
  pi_released_at: BigIntValue | null;
  pi_available_at: BigIntValue | null;
  re_amount: BigIntValue | null;
  re_currency: string | null;
}

interface EntryRow {
  transaction_seq: BigIntValue;
  account: string;
  currency: string;
  amount: BigIntValue;
  settlement_id: string | null;
}

/**
 * Balance transactions read from the journal in two statements per page, whatever its size: the
 * page's transactions (joined with their payment intent and refund, for `available_on` and
 * `exchange`) and then all their entries. Every filter runs in the database, so a page is cut after
 * filtering; `available_on` is computed there by the rule of `availableOn` in core.
 */
export class KnexBalanceTransactionReader implements BalanceTransactionReader {
  constructor(private readonly context: KnexContext) {}

  async list(scope: AccountScope, filter: BalanceTransactionFilter, page: JournalPageRequest): Promise<Page<JournalRecord>> {
    const db = this.context.db();
    const query = this.lines(db, scope, filter.currency);
    if (page.beforeSeq !== undefined) query.where('t.seq', '<', page.beforeSeq);
    if (filter.type === 'adjustment') query.whereNotIn('t.cause_type', [...TYPED_CAUSES]);
    else if (filter.type !== undefined) query.whereIn('t.cause_type', [...TYPE_CAUSES[filter.type]]);
    if (filter.paymentIntentId !== undefined) query.where('t.payment_intent_id', filter.paymentIntentId);
    if (filter.createdGte !== undefined) query.where('t.created_at', '>=', filter.createdGte.getTime());
    if (filter.createdLte !== undefined) query.where('t.created_at', '<=', filter.createdLte.getTime());
    const needsAvailable = filter.settlementId !== undefined || filter.availableOnGte !== undefined || filter.availableOnLte !== undefined;
    const available = needsAvailable ? await this.availableAccounts(db, scope) : [];
    if (filter.settlementId !== undefined) {
      // The (account, settlement_id) index of migration 024 finds a settlement's entries directly.
      if (available.length === 0) return { data: [], hasMore: false };
      query.whereIn(
        't.seq',
        db('ledger_entries as s').select('s.transaction_seq').whereIn('s.account', available).where('s.settlement_id', filter.settlementId),
      );
    }
    if (filter.availableOnGte !== undefined || filter.availableOnLte !== undefined) {
      const [expression, bindings] = availableOnSql(available);
      // NULL (no available_on) compares to nothing: such a line passes neither bound.
      if (filter.availableOnGte !== undefined) query.whereRaw(`${expression} >= ?`, [...bindings, filter.availableOnGte.getTime()]);
      if (filter.availableOnLte !== undefined) query.whereRaw(`${expression} <= ?`, [...bindings, filter.availableOnLte.getTime()]);
    }
    // One extra row tells whether another page follows without a COUNT.
    const rows = await this.context.rows<LineRow>(query.orderBy('t.seq', 'desc').limit(page.limit + 1, INLINE));
    const records = await this.withEntries(db, rows.slice(0, page.limit));
    return { data: records, hasMore: rows.length > page.limit };
  }

  async find(scope: AccountScope, seq: number): Promise<JournalRecord | undefined> {
    const db = this.context.db();
    const rows = await this.context.rows<LineRow>(this.lines(db, scope).where('t.seq', seq).limit(1, INLINE));
    return (await this.withEntries(db, rows))[0];
  }

  /**
   * The scope's transactions that move its merchant's money (in `currency`, when given): at least
   * one entry on one of its accounts. The exact account columns, not the transaction's merchant: a
   * chargeback or a paid payout names the merchant but moves only platform money.
   */
  private lines(db: Knex, scope: AccountScope, currency?: string) {
    const merchantLegs = db('ledger_entries as m')
      .select(db.raw('1'))
      .whereRaw('m.transaction_seq = t.seq')
      .where({ 'm.account_merchant_id': scope.merchantId, 'm.account_mode': scope.mode });
    if (currency !== undefined) merchantLegs.where('m.currency', currency);
    return db('ledger_transactions as t')
      .leftJoin('payment_intents as pi', 'pi.id', 't.payment_intent_id')
      .leftJoin('refunds as r', (on) => void on.on('r.id', '=', 't.cause_id').andOnIn('t.cause_type', ['refund', 'refund_failed']))
      .where({ 't.merchant_id': scope.merchantId, 't.mode': scope.mode })
      .whereExists(merchantLegs)
      .select<LineRow[]>(
        't.seq',
        't.cause_type',
        't.cause_id',
        't.payment_intent_id',
        't.created_at',
        'pi.amount as pi_amount',
        'pi.currency as pi_currency',
        'pi.fx as pi_fx',
        'pi.released_at as pi_released_at',
        'pi.available_at as pi_available_at',
        'r.amount as re_amount',
        'r.currency as re_currency',
      );
  }

  /** The scope's available accounts, one per currency it ever held (from the balance table: a handful of rows). */
  private async availableAccounts(db: Knex, scope: AccountScope): Promise<string[]> {
    const rows = await this.context.rows<{ account: string }>(
      db('ledger_balances').select('account').where({ merchant_id: scope.merchantId, mode: scope.mode }),
    );
    return rows
      .map((row) => row.account)
      .filter((account) => {
        const parsed = parseAccountCode(account);
        return parsed?.kind === 'merchant' && parsed.bucket === 'available';
      });
  }

  /** The records of `rows`, each with every entry of its transaction, in the rows' order. */
  private async withEntries(db: Knex, rows: readonly LineRow[]): Promise<JournalRecord[]> {
    if (rows.length === 0) return [];
    const entryRows = await this.context.rows<EntryRow>(
      db('ledger_entries')
        .select('transaction_seq', 'account', 'currency', 'amount', 'settlement_id')
        .whereIn(
          'transaction_seq',
          rows.map((row) => toNumber(row.seq)),
        )
        .orderBy('seq', 'asc'),
    );
    const entries = new Map<number, JournalRecordEntry[]>();
    for (const row of entryRows) {
      const seq = toNumber(row.transaction_seq);
      const entry: JournalRecordEntry = {
        account: row.account,
        currency: row.currency,
        amount: toNumber(row.amount),
        ...(row.settlement_id === null ? {} : { settlementId: row.settlement_id }),
      };
      entries.set(seq, [...(entries.get(seq) ?? []), entry]);
    }
    return rows.map((row) => toRecord(row, entries.get(toNumber(row.seq)) ?? []));
  }
}

/**
 * `available_on` in SQL, as `availableOn` in core defines it: a payment line's release, or its due
 * release; any other line that moved the available bucket, its own time; else NULL.
 */
function availableOnSql(availableAccounts: readonly string[]): [string, string[]] {
  const movedAvailable =
    availableAccounts.length === 0
      ? '0 <> 0'
      : `COALESCE((SELECT SUM(a.amount) FROM ledger_entries a WHERE a.transaction_seq = t.seq AND a.account IN (${availableAccounts.map(() => '?').join(', ')})), 0) <> 0`;
  return [
    `(CASE WHEN t.cause_type = 'payment' THEN COALESCE(pi.released_at, pi.available_at) WHEN ${movedAvailable} THEN t.created_at ELSE NULL END)`,
    [...availableAccounts],
  ];
}

function toRecord(row: LineRow, entries: JournalRecordEntry[]): JournalRecord {
  const rate = row.pi_fx === null ? undefined : fromJson<{ rate?: string }>(row.pi_fx).rate;
  const releasedAt = toOptionalDate(row.pi_released_at);
  const availableAt = toOptionalDate(row.pi_available_at);
  return {
    seq: toNumber(row.seq),
    causeType: row.cause_type,
    causeId: row.cause_id,
    ...(row.payment_intent_id === null ? {} : { paymentIntentId: row.payment_intent_id }),
    created: new Date(toNumber(row.created_at)),
    entries,
    ...(row.pi_amount === null || row.pi_currency === null
      ? {}
      : {
          payment: {
            amount: toNumber(row.pi_amount),
            currency: row.pi_currency,
            ...(rate === undefined ? {} : { rate }),
            ...(releasedAt === undefined ? {} : { releasedAt }),
            ...(availableAt === undefined ? {} : { availableAt }),
          },
        }),
    ...(row.re_amount === null || row.re_currency === null ? {} : { refund: { amount: toNumber(row.re_amount), currency: row.re_currency } }),
  };
}
