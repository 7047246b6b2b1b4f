import type {
  Amount,
  BreakReason,
  ChannelStatement,
  KeyTotal,
  LineTotalsQuery,
  Mode,
  OpenBreakCount,
  ReconciliationItem,
  ReconciliationItemFilter,
  ReconciliationProgress,
  ReconciliationStatus,
  ReconciliationStore,
  StatementLineKind,
} from '@payments/core';
import { inRepositoryTransaction, type KnexContext } from '../knex-context';
import { INLINE } from '../sql-statements';
import { fromJson, toBigInt, toMillis, toNullableMillis, toNumber, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface ProgressRow {
  channel: string;
  mode: Mode;
  cursor: string | null;
  statement_as_of: BigIntValue | null;
  checked_until: BigIntValue | null;
}

interface BreakRow {
  id: string;
  channel: string;
  mode: Mode;
  kind: StatementLineKind;
  reference: string;
  open_key: string | null;
  status: ReconciliationStatus;
  reason: BreakReason;
  statement_amounts: string;
  ledger_amounts: string;
  merchant_id: string | null;
  detail: string | null;
  first_seen_at: BigIntValue;
  opened_at: BigIntValue | null;
  cleared_at: BigIntValue | null;
  updated_at: BigIntValue;
}

/** Amounts as their JSON column: exact digits, since a sum may pass 2^53 − 1. */
type StoredAmounts = Array<{ amount: string; currency: string }>;

function amountsColumn(amounts: readonly Amount[]): string {
  return JSON.stringify(amounts.map((amount): StoredAmounts[number] => ({ amount: amount.amount.toString(), currency: amount.currency })));
}

function amountsOf(text: string): Amount[] {
  return fromJson<StoredAmounts>(text).map((amount) => ({ amount: BigInt(amount.amount), currency: amount.currency }));
}

function toRow(item: ReconciliationItem): BreakRow {
  return {
    id: item.id,
    channel: item.channel,
    mode: item.mode,
    kind: item.kind,
    reference: item.reference,
    open_key: item.status === 'cleared' ? null : `${item.channel}:${item.mode}:${item.kind}:${item.reference}`,
    status: item.status,
    reason: item.reason,
    statement_amounts: amountsColumn(item.statement),
    ledger_amounts: amountsColumn(item.ledger),
    merchant_id: item.merchantId ?? null,
    detail: item.detail ?? null,
    first_seen_at: toMillis(item.firstSeenAt),
    opened_at: toNullableMillis(item.openedAt),
    cleared_at: toNullableMillis(item.clearedAt),
    updated_at: toMillis(item.updated),
  };
}

function toItem(row: BreakRow): ReconciliationItem {
  return withoutUndefined({
    id: row.id,
    channel: row.channel,
    mode: row.mode,
    kind: row.kind,
    reference: row.reference,
    status: row.status,
    reason: row.reason,
    statement: amountsOf(row.statement_amounts),
    ledger: amountsOf(row.ledger_amounts),
    merchantId: row.merchant_id ?? undefined,
    detail: row.detail ?? undefined,
    firstSeenAt: new Date(toNumber(row.first_seen_at)),
    openedAt: toOptionalDate(row.opened_at),
    clearedAt: toOptionalDate(row.cleared_at),
    updated: new Date(toNumber(row.updated_at)),
  });
}

/** Lines inserted per statement: well under every engine's limit of bound values. */
const INSERT_CHUNK = 100;

/**
 * The reconciliation's tables (migration 022): the statement lines as read, the progress per
 * channel and mode, and the breaks.
 */
export class KnexReconciliationStore implements ReconciliationStore {
  constructor(readonly context: KnexContext) {}

  async progress(channel: string, mode: Mode): Promise<ReconciliationProgress | undefined> {
    const row = await this.context.firstRow<ProgressRow>(this.context.db()<ProgressRow>('reconciliation_progress').where({ channel, mode }).limit(1, INLINE));
    if (!row) return undefined;
    return withoutUndefined({
      channel: row.channel,
      mode: row.mode,
      cursor: row.cursor ?? undefined,
      statementAsOf: toOptionalDate(row.statement_as_of),
      checkedUntil: toOptionalDate(row.checked_until),
    });
  }

  async saveStatementPage(channel: string, mode: Mode, page: ChannelStatement, fetchedAt: Date): Promise<number> {
    return inRepositoryTransaction(this, async (bound) => {
      const db = bound.context.db();
      let added = 0;
      for (let start = 0; start < page.lines.length; start += INSERT_CHUNK) {
        const rows = page.lines.slice(start, start + INSERT_CHUNK).map((line) => ({
          channel,
          mode,
          kind: line.kind,
          channel_id: line.channelId,
          reference: line.reference,
          currency: line.currency,
          amount: line.amount,
          occurred_at: toMillis(line.occurredAt),
          fetched_at: toMillis(fetchedAt),
        }));
        const known = await bound.context.rows<{ kind: string; channel_id: string }>(
          db('reconciliation_statement_lines')
            .where({ channel, mode })
            .whereIn(
              'channel_id',
              rows.map((row) => row.channel_id),
            )
            .select('kind', 'channel_id'),
        );
        const seen = new Set(known.map((row) => `${row.kind}:${row.channel_id}`));
        added += new Set(rows.map((row) => `${row.kind}:${row.channel_id}`).filter((key) => !seen.has(key))).size;
        await bound.context.write(db('reconciliation_statement_lines').insert(rows).onConflict(['channel', 'mode', 'kind', 'channel_id']).ignore());
      }
      await bound.context.write(
        db('reconciliation_progress')
          .insert({ channel, mode, cursor: page.next, statement_as_of: toMillis(page.asOf), checked_until: null })
          .onConflict(['channel', 'mode'])
          .merge(['cursor', 'statement_as_of']),
      );
      return added;
    });
  }

  async lineTotals(query: LineTotalsQuery): Promise<KeyTotal[]> {
    if (query.keys !== undefined && query.keys.length === 0 && query.fetchedSince === undefined) return [];
    const db = this.context.db();
    const lines = db('reconciliation_statement_lines as l')
      .where({ 'l.channel': query.channel, 'l.mode': query.mode })
      .where((which) => {
        if (query.fetchedSince !== undefined) {
          void which.orWhereExists(
            db('reconciliation_statement_lines as recent')
              .select(db.raw('1'))
              .whereRaw('recent.channel = l.channel AND recent.mode = l.mode AND recent.kind = l.kind AND recent.reference = l.reference')
              .where('recent.fetched_at', '>=', toMillis(query.fetchedSince)),
          );
        }
        for (const key of query.keys ?? []) void which.orWhere((one) => void one.where({ 'l.kind': key.kind, 'l.reference': key.reference }));
      })
      .groupBy('l.kind', 'l.reference', 'l.currency')
      .select('l.kind', 'l.reference', 'l.currency', db.raw('CAST(SUM(l.amount) AS CHAR) AS ??', ['total']));
    const rows = await this.context.rows<{ kind: StatementLineKind; reference: string; currency: string; total: BigIntValue }>(lines);
    return rows.map((row) => ({ kind: row.kind, reference: row.reference, currency: row.currency, amount: toBigInt(row.total) }));
  }

  async unsettled(channel: string, mode: Mode): Promise<ReconciliationItem[]> {
    const rows = await this.context.rows<BreakRow>(
      this.context.db()<BreakRow>('reconciliation_breaks').where({ channel, mode }).whereIn('status', ['waiting', 'open']),
    );
    return rows.map(toItem);
  }

  async record(
    channel: string,
    mode: Mode,
    changes: { readonly save: readonly ReconciliationItem[]; readonly remove: readonly string[] },
    checkedUntil: Date,
  ): Promise<void> {
    await inRepositoryTransaction(this, async (bound) => {
      const db = bound.context.db();
      for (const id of changes.remove) await bound.context.write(db('reconciliation_breaks').where({ id, status: 'waiting' }).delete());
      for (const item of changes.save) {
        const { id, ...columns } = toRow(item);
        const updated = await bound.context.write(db('reconciliation_breaks').where({ id }).update(columns));
        if (updated.affectedRows === 0) await bound.context.write(db('reconciliation_breaks').insert({ id, ...columns }));
      }
      await bound.context.write(
        db('reconciliation_progress')
          .insert({ channel, mode, cursor: null, statement_as_of: null, checked_until: toMillis(checkedUntil) })
          .onConflict(['channel', 'mode'])
          .merge(['checked_until']),
      );
    });
  }

  async list(filter: ReconciliationItemFilter): Promise<ReconciliationItem[]> {
    const query = this.context.db()<BreakRow>('reconciliation_breaks');
    if (filter.status !== undefined) void query.where({ status: filter.status });
    if (filter.channel !== undefined) void query.where({ channel: filter.channel });
    if (filter.mode !== undefined) void query.where({ mode: filter.mode });
    const rows = await this.context.rows<BreakRow>(query.orderBy('updated_at', 'desc').orderBy('id', 'asc').limit(filter.limit, INLINE));
    return rows.map(toItem);
  }

  async countOpen(): Promise<OpenBreakCount[]> {
    const rows = await this.context.rows<{ channel: string; mode: Mode; reason: BreakReason; count: BigIntValue }>(
      this.context
        .db()('reconciliation_breaks')
        .where({ status: 'open' })
        .groupBy('channel', 'mode', 'reason')
        .select('channel', 'mode', 'reason', this.context.db().raw('COUNT(*) AS ??', ['count'])),
    );
    return rows.map((row) => ({ channel: row.channel, mode: row.mode, reason: row.reason, count: toNumber(row.count) }));
  }
}
