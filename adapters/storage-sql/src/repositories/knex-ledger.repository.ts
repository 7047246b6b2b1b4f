import {
  isEmptyTransaction,
  parseAccountCode,
  type AccountScope,
  type ChannelMovementKind,
  type ChannelMovementQuery,
  type ChannelMovementTotal,
  type ForeignEntry,
  type Ledger,
  type CoveredCauseTotal,
  type LedgerBalance,
  type LedgerCauseType,
  type LedgerTransaction,
  type MerchantBucket,
  type SettlementCoverage,
  type UncoveredEntry,
  type UnbalancedTransaction,
} from '@payments/core';
import type { Knex } from 'knex';
import { inRepositoryTransaction, type KnexContext } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toBigInt, toMillis, toNumber, type BigIntValue } from '../mapping/column-values';
import { isDuplicateKeyError } from '../sql-errors';

interface BalanceRow {
  account: string;
  merchant_id: string | null;
  mode: string;
  currency: string;
  balance: BigIntValue;
}

const CAUSE_UNIQUE = { indexName: 'ledger_transactions_cause_unique', sqliteColumns: ['ledger_transactions.cause'] };

interface MovementTotalRow {
  kind: ChannelMovementKind;
  reference: string;
  currency: string;
  total: BigIntValue;
  movements: BigIntValue;
  merchant_id: string;
  first_created: BigIntValue;
  last_created: BigIntValue;
}

/** How many ids one statement names (`IN (…)`), well under every engine's limit of bound values. */
const ID_CHUNK = 500;

/** `ids` in slices of at most ID_CHUNK. */
function chunks<T>(ids: readonly T[]): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < ids.length; start += ID_CHUNK) slices.push(ids.slice(start, start + ID_CHUNK));
  return slices;
}

interface UncoveredRow {
  seq: BigIntValue;
  amount: BigIntValue;
  cause_type: LedgerCauseType;
  cause_id: string;
  payment_intent_id: string | null;
}

interface CoveredCauseRow {
  settlement_id: string;
  cause_type: LedgerCauseType;
  entries: BigIntValue;
  total: BigIntValue;
}

interface ReleasedRow {
  settlement_id: string;
  payments: BigIntValue;
  net: BigIntValue | null;
  fee: BigIntValue | null;
}

/** The columns a balance row derives from its account code. */
function accountColumns(account: string): { merchant_id: string | null; mode: string } {
  const parsed = parseAccountCode(account);
  if (!parsed) throw new Error(`Not a ledger account code: ${account}`);
  return { merchant_id: parsed.kind === 'merchant' ? parsed.merchantId : null, mode: parsed.mode };
}

/** The columns of a balance read back: the account, its currency and its balance as exact text. */
type AccountBalance = Pick<BalanceRow, 'account' | 'currency' | 'balance'>;

function balanceFromRow(row: AccountBalance): LedgerBalance {
  return { account: row.account, currency: row.currency, balance: toBigInt(row.balance) };
}

/**
 * Balances and sums leave the database as decimal text (CHAR has TEXT affinity on SQLite): past
 * 2^53 − 1, better-sqlite3 would round an integer to a double and mysql2 answers DECIMAL sums as
 * strings anyway. Both engines add BIGINTs exactly; only the way out needed care.
 */
function exactText(db: Knex, expression: string, alias: string): Knex.Raw {
  return db.raw(`CAST(${expression} AS CHAR) AS ??`, [alias]);
}

export class KnexLedger implements Ledger {
  constructor(readonly context: KnexContext) {}

  async post(tx: LedgerTransaction): Promise<boolean> {
    // A posting is never half written: outside a unit of work it takes a transaction of its own.
    return inRepositoryTransaction(this, (bound) => bound.write(tx));
  }

  async hasPosted(cause: string): Promise<boolean> {
    return (await this.context.firstRow(this.context.db()('ledger_transactions').where({ cause }).select('seq').limit(1, INLINE))) !== undefined;
  }

  async paymentShares(scope: AccountScope, paymentIntentId: string): Promise<Record<MerchantBucket, bigint>> {
    const db = this.context.db();
    const rows = await this.context.rows<AccountBalance>(
      db('ledger_entries as e')
        .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
        .where({ 't.merchant_id': scope.merchantId, 't.mode': scope.mode, 't.payment_intent_id': paymentIntentId })
        .whereNotNull('e.account_merchant_id')
        .groupBy('e.account')
        .select('e.account', exactText(db, 'SUM(e.amount)', 'balance')),
    );
    const shares: Record<MerchantBucket, bigint> = { pending: 0n, available: 0n, dispute_hold: 0n };
    for (const row of rows) {
      const account = parseAccountCode(row.account);
      if (account?.kind === 'merchant') shares[account.bucket] += toBigInt(row.balance);
    }
    return shares;
  }

  async balances(scope: AccountScope): Promise<LedgerBalance[]> {
    const db = this.context.db();
    const rows = await this.context.rows<AccountBalance>(
      db('ledger_balances')
        .select('account', 'currency', exactText(db, 'balance', 'balance'))
        .where({ merchant_id: scope.merchantId, mode: scope.mode })
        .orderBy('account'),
    );
    return rows.map(balanceFromRow);
  }

  async balanceForUpdate(account: string): Promise<bigint> {
    const db = this.context.db();
    const query = db('ledger_balances')
      .select(exactText(db, 'balance', 'balance'))
      .where({ account });
    const row = await this.context.firstRow<{ balance: BigIntValue }>(this.context.lockedRead(query).limit(1, INLINE));
    return row ? toBigInt(row.balance) : 0n;
  }

  async settledBalance(account: string): Promise<{ readonly table: bigint; readonly journal: bigint }> {
    return inRepositoryTransaction(this, async (bound) => {
      // Postings update the balance row in their own transaction: once it is ours, they have committed.
      const table = await bound.balanceForUpdate(account);
      const db = bound.context.db();
      const row = await bound.context.firstRow<{ balance: BigIntValue | null }>(
        db('ledger_entries')
          .where({ account })
          .select(exactText(db, 'COALESCE(SUM(amount), 0)', 'balance')),
      );
      return { table, journal: toBigInt(row?.balance ?? 0) };
    });
  }

  async uncoveredEntries(account: string): Promise<UncoveredEntry[]> {
    // The index (account, settlement_id) finds them without reading what settlements covered.
    const rows = await this.context.rows<UncoveredRow>(
      this.context
        .db()('ledger_entries as e')
        .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
        .where('e.account', account)
        .whereNull('e.settlement_id')
        .orderBy('e.seq', 'asc')
        .select('e.seq', 'e.amount', 't.cause_type', 't.cause_id', 't.payment_intent_id'),
    );
    return rows.map((row) => ({
      id: String(row.seq),
      amount: toNumber(row.amount),
      causeType: row.cause_type,
      causeId: row.cause_id,
      ...(row.payment_intent_id === null ? {} : { paymentIntentId: row.payment_intent_id }),
    }));
  }

  async coverEntries(account: string, settlementId: string, entryIds: readonly string[]): Promise<number> {
    let marked = 0;
    for (const slice of chunks([...new Set(entryIds)])) {
      // Conditional on NULL: of two settlements racing for an entry only one marks it, and the
      // count tells the other it lost (the UPDATE's row locks serialise them).
      const covered = await this.context.write(
        this.context.db()('ledger_entries').where('account', account).whereIn('seq', slice).whereNull('settlement_id').update({ settlement_id: settlementId }),
      );
      marked += covered.affectedRows;
    }
    return marked;
  }

  async coverCause(account: string, settlementId: string, cause: string): Promise<number> {
    const db = this.context.db();
    const posted = await this.context.firstRow<{ seq: BigIntValue }>(db('ledger_transactions').where({ cause }).select('seq').limit(1, INLINE));
    if (!posted) return 0;
    const covered = await this.context.write(
      db('ledger_entries')
        .where({ account, transaction_seq: toNumber(posted.seq) })
        .whereNull('settlement_id')
        .update({ settlement_id: settlementId }),
    );
    return covered.affectedRows;
  }

  async coveredTotals(account: string, settlementIds: readonly string[]): Promise<SettlementCoverage[]> {
    const db = this.context.db();
    const causes = new Map<string, CoveredCauseTotal[]>();
    const released = new Map<string, SettlementCoverage['released']>();
    for (const slice of chunks([...new Set(settlementIds)])) {
      const causeRows = await this.context.rows<CoveredCauseRow>(
        db('ledger_entries as e')
          .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
          .where('e.account', account)
          .whereIn('e.settlement_id', slice)
          // A settlement's own entry is what it pays, not a line it pays.
          .whereRaw('NOT (t.cause_type = ? AND t.cause_id = e.settlement_id)', ['settlement_created'])
          .groupBy('e.settlement_id', 't.cause_type')
          .select('e.settlement_id', 't.cause_type', db.raw('COUNT(*) AS ??', ['entries']), exactText(db, 'SUM(e.amount)', 'total')),
      );
      for (const row of causeRows) {
        const list = causes.get(row.settlement_id) ?? [];
        list.push({ causeType: row.cause_type, count: toNumber(row.entries), amount: toBigInt(row.total) });
        causes.set(row.settlement_id, list);
      }
      // The released payments' net and fee, as their `payment` transactions booked them.
      const releasedRows = await this.context.rows<ReleasedRow>(
        db('ledger_entries as e')
          .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
          .join('ledger_transactions as pt', (on) => {
            on.on('pt.merchant_id', 't.merchant_id').andOn('pt.mode', 't.mode').andOn('pt.payment_intent_id', 't.payment_intent_id');
          })
          .join('ledger_entries as pe', 'pe.transaction_seq', 'pt.seq')
          .where('e.account', account)
          .whereIn('e.settlement_id', slice)
          .where('t.cause_type', 'release')
          .where('pt.cause_type', 'payment')
          .groupBy('e.settlement_id')
          .select(
            'e.settlement_id',
            db.raw('COUNT(DISTINCT t.seq) AS ??', ['payments']),
            exactText(db, 'SUM(CASE WHEN pe.account_merchant_id IS NOT NULL THEN pe.amount ELSE 0 END)', 'net'),
            exactText(db, "SUM(CASE WHEN pe.account LIKE 'p:%:fee_revenue:%' THEN pe.amount ELSE 0 END)", 'fee'),
          ),
      );
      for (const row of releasedRows) {
        released.set(row.settlement_id, { count: toNumber(row.payments), net: toBigInt(row.net ?? 0), fee: toBigInt(row.fee ?? 0) });
      }
    }
    return settlementIds.map((settlementId) => ({
      settlementId,
      causes: causes.get(settlementId) ?? [],
      released: released.get(settlementId) ?? { count: 0, net: 0n, fee: 0n },
    }));
  }

  async paymentsTotal(account: string, paymentIntentIds: readonly string[]): Promise<bigint> {
    const db = this.context.db();
    const parsed = parseAccountCode(account);
    if (parsed?.kind !== 'merchant') return 0n;
    let total = 0n;
    for (const slice of chunks([...new Set(paymentIntentIds)])) {
      const row = await this.context.firstRow<{ total: BigIntValue | null }>(
        db('ledger_entries as e')
          .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
          .where({ 't.merchant_id': parsed.merchantId, 't.mode': parsed.mode, 'e.account': account })
          .whereIn('t.payment_intent_id', slice)
          .select(exactText(db, 'SUM(e.amount)', 'total')),
      );
      total += toBigInt(row?.total ?? 0);
    }
    return total;
  }

  async balanceTable(): Promise<LedgerBalance[]> {
    const db = this.context.db();
    const rows = await this.context.rows<AccountBalance>(
      db('ledger_balances')
        .select('account', 'currency', exactText(db, 'balance', 'balance'))
        .orderBy('account'),
    );
    return rows.map(balanceFromRow);
  }

  async journalTotals(): Promise<LedgerBalance[]> {
    return this.totals(this.context.db());
  }

  async unbalancedTransactions(limit: number): Promise<UnbalancedTransaction[]> {
    const db = this.context.db();
    const rows = await this.context.rows<{ cause: string; currency: string; total: BigIntValue }>(
      db('ledger_entries as e')
        .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
        .groupBy('t.seq', 't.cause', 'e.currency')
        .havingRaw('SUM(e.amount) <> 0')
        .select('t.cause', 'e.currency', exactText(db, 'SUM(e.amount)', 'total'))
        .limit(limit, INLINE),
    );
    return rows.map((row) => ({ cause: row.cause, currency: row.currency, sum: toBigInt(row.total) }));
  }

  /** What the journal's entries sum to per account, exactly. */
  private async totals(db: Knex): Promise<LedgerBalance[]> {
    const rows = await this.context.rows<AccountBalance>(
      db('ledger_entries')
        .select('account', 'currency', exactText(db, 'SUM(amount)', 'balance'))
        .groupBy('account', 'currency')
        .orderBy('account'),
    );
    return rows.map(balanceFromRow);
  }

  async foreignEntries(limit: number): Promise<ForeignEntry[]> {
    return this.context.rows<ForeignEntry>(
      this.context
        .db()('ledger_entries as e')
        .join('ledger_transactions as t', 't.seq', 'e.transaction_seq')
        .where((where) => void where.whereNotNull('e.account_merchant_id').andWhereRaw('e.account_merchant_id <> t.merchant_id'))
        .orWhereRaw('e.account_mode <> t.mode')
        .select('t.cause', 'e.account')
        .limit(limit, INLINE),
    );
  }

  async rebuildBalances(): Promise<number> {
    return inRepositoryTransaction(this, async (bound) => {
      const trx = bound.context.db();
      const totals = await bound.totals(trx);
      await bound.context.write(trx('ledger_balances').delete());
      for (const row of totals) {
        // Bound as text: a driver would turn a BigInt past 2^53 − 1 into a rounded double, or refuse it.
        await bound.context.write(
          trx('ledger_balances').insert({
            account: row.account,
            ...accountColumns(row.account),
            currency: row.currency,
            balance: trx.raw('CAST(? AS SIGNED)', [row.balance.toString()]),
          }),
        );
      }
      return totals.length;
    });
  }

  async channelMovements(query: ChannelMovementQuery): Promise<ChannelMovementTotal[]> {
    const db = this.context.db();
    if (query.keys !== undefined && query.keys.length === 0 && query.activeSince === undefined) return [];
    const movements = db('ledger_channel_movements as m')
      .where({ 'm.mode': query.mode, 'm.channel': query.channel })
      .where((which) => {
        if (query.activeSince !== undefined) {
          // Every movement of a key that moved since: the key's whole sum, not only its recent part.
          void which.orWhereExists(
            db('ledger_channel_movements as recent')
              .select(db.raw('1'))
              .whereRaw('recent.mode = m.mode AND recent.channel = m.channel AND recent.kind = m.kind AND recent.reference = m.reference')
              .where('recent.created_at', '>=', toMillis(query.activeSince)),
          );
        }
        for (const key of query.keys ?? []) void which.orWhere((one) => void one.where({ 'm.kind': key.kind, 'm.reference': key.reference }));
      })
      .groupBy('m.kind', 'm.reference', 'm.currency')
      .select(
        'm.kind',
        'm.reference',
        'm.currency',
        exactText(db, 'SUM(m.amount)', 'total'),
        db.raw('COUNT(*) AS ??', ['movements']),
        db.raw('MIN(m.merchant_id) AS ??', ['merchant_id']),
        db.raw('MIN(m.created_at) AS ??', ['first_created']),
        db.raw('MAX(m.created_at) AS ??', ['last_created']),
      );
    const rows = await this.context.rows<MovementTotalRow>(movements);
    return rows.map((row) => ({
      channel: query.channel,
      kind: row.kind,
      reference: row.reference,
      currency: row.currency,
      amount: toBigInt(row.total),
      movements: toNumber(row.movements),
      merchantId: row.merchant_id,
      firstCreated: new Date(toNumber(row.first_created)),
      lastCreated: new Date(toNumber(row.last_created)),
    }));
  }

  /** Keeps what the channel moved, once per cause (a repeated posting writes nothing again). */
  private async writeMovement(db: Knex, tx: LedgerTransaction): Promise<void> {
    const movement = tx.channelMovement;
    if (!movement) return;
    await this.context.write(
      db('ledger_channel_movements')
        .insert({
          cause: tx.cause,
          merchant_id: tx.merchantId,
          mode: tx.mode,
          channel: movement.channel,
          kind: movement.kind,
          reference: movement.reference,
          currency: movement.currency,
          amount: movement.amount,
          created_at: toMillis(tx.created),
        })
        .onConflict('cause')
        .ignore(),
    );
  }

  private async write(tx: LedgerTransaction): Promise<boolean> {
    const db = this.context.db();
    if (isEmptyTransaction(tx)) {
      // Nothing to book, but the channel moved the money all the same: the reconciliation needs it.
      await this.writeMovement(db, tx);
      return false;
    }
    let seq: number;
    try {
      const inserted = await this.context.write(
        db('ledger_transactions').insert({
          cause: tx.cause,
          cause_type: tx.causeType,
          cause_id: tx.causeId,
          merchant_id: tx.merchantId,
          mode: tx.mode,
          payment_intent_id: tx.paymentIntentId ?? null,
          created_at: toMillis(tx.created),
        }),
      );
      seq = inserted.insertId;
    } catch (error) {
      // The cause was posted before (a replayed callback, a job run twice): nothing to add.
      if (isDuplicateKeyError(error, CAUSE_UNIQUE)) return false;
      throw error;
    }
    await this.context.write(
      db('ledger_entries').insert(
        tx.entries.map((entry) => {
          const columns = accountColumns(entry.account);
          return {
            transaction_seq: seq,
            account: entry.account,
            account_merchant_id: columns.merchant_id,
            account_mode: columns.mode,
            currency: entry.currency,
            amount: entry.amount,
          };
        }),
      ),
    );
    await this.addToBalances(db, tx);
    await this.writeMovement(db, tx);
    return true;
  }

  /**
   * One upsert per account, in account order: every posting takes the balance rows' locks in the
   * same order, so two postings sharing platform accounts wait for each other instead of deadlocking.
   */
  private async addToBalances(db: Knex, tx: LedgerTransaction): Promise<void> {
    const deltas = new Map<string, { currency: string; amount: number }>();
    for (const entry of tx.entries) {
      const delta = deltas.get(entry.account);
      deltas.set(entry.account, { currency: entry.currency, amount: (delta?.amount ?? 0) + entry.amount });
    }
    for (const [account, { currency, amount }] of [...deltas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      await this.context.write(
        db('ledger_balances')
          .insert({ account, ...accountColumns(account), currency, balance: amount })
          .onConflict('account')
          // Bound as text and cast: better-sqlite3 binds a JS number as a double, which would make
          // the sum a REAL and round a balance past 2^53; MySQL would add a plain string as a double.
          .merge({ balance: db.raw('ledger_balances.balance + CAST(? AS SIGNED)', [String(amount)]) }),
      );
    }
  }
}
