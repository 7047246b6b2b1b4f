import {
  ConcurrentUpdateError,
  type AccountScope,
  type Mode,
  type Page,
  type PageRequest,
  type PaymentIntent,
  type RequestKey,
  type Settlement,
  type SettlementRepository,
  type SettlementStatus,
} from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import {
  toDate,
  toMillis,
  toNullable,
  toNullableMillis,
  toNumber,
  toOptional,
  toOptionalDate,
  withoutUndefined,
  type BigIntValue,
} from '../mapping/column-values';
import { toPaymentIntent, type PaymentIntentRow } from '../mapping/payment-intent.row';
import { SETTLEMENT_PART_INDEXES } from '../migrations/016-settlement-parts.migration';
import { CONSOLE_INDEXES } from '../migrations/019-dashboard-console.migration';
import { isDuplicateKeyError } from '../sql-errors';
import { cursorSeq } from './cursor';

interface SettlementRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  status: SettlementStatus;
  amount: BigIntValue;
  currency: string;
  payments: number;
  period_start: BigIntValue;
  period_end: BigIntValue;
  trigger: Settlement['trigger'];
  scheduled_period_end: BigIntValue | null;
  scheduled_part: number | null;
  request_caller: string | null;
  request_key: string | null;
  destination_id: string | null;
  failure_reason: string | null;
  paid_at: BigIntValue | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
}

const SCHEDULED_PART_UNIQUE = {
  indexName: SETTLEMENT_PART_INDEXES.scheduledPart,
  sqliteColumns: ['settlements.merchant_id', 'settlements.mode', 'settlements.scheduled_period_end', 'settlements.scheduled_part'],
} as const;

const REQUEST_KEY_UNIQUE = {
  indexName: CONSOLE_INDEXES.settlementRequestKey,
  sqliteColumns: ['settlements.merchant_id', 'settlements.mode', 'settlements.request_caller', 'settlements.request_key'],
} as const;

/** Disputes that keep a payment out of settlement: its money is held, or was taken back. */
const BLOCKING_DISPUTES = ['opened', 'under_review', 'lost'] as const;

/** IN lists stay well under every engine's limit on bound parameters. */
const ID_CHUNK = 500;

function toRow(settlement: Settlement): SettlementRow {
  return {
    id: settlement.id,
    merchant_id: settlement.merchantId,
    mode: settlement.mode,
    status: settlement.status,
    amount: settlement.amount.amount,
    currency: settlement.amount.currency,
    payments: settlement.payments,
    period_start: toMillis(settlement.periodStart),
    period_end: toMillis(settlement.periodEnd),
    trigger: settlement.trigger,
    scheduled_period_end: settlement.trigger === 'scheduled' ? toMillis(settlement.periodEnd) : null,
    scheduled_part: settlement.trigger === 'scheduled' ? (settlement.part ?? 1) : null,
    request_caller: toNullable(settlement.requestKey?.caller),
    request_key: toNullable(settlement.requestKey?.key),
    destination_id: toNullable(settlement.destinationId),
    failure_reason: toNullable(settlement.failureReason),
    paid_at: toNullableMillis(settlement.paidAt),
    created_at: toMillis(settlement.created),
    updated_at: toMillis(settlement.updated),
  };
}

function toEntity(row: SettlementRow): Settlement {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    status: row.status,
    amount: { amount: toNumber(row.amount), currency: row.currency },
    payments: row.payments,
    periodStart: toDate(row.period_start),
    periodEnd: toDate(row.period_end),
    trigger: row.trigger,
    part: toOptional(row.scheduled_part),
    requestKey: row.request_key === null || row.request_caller === null ? undefined : { caller: row.request_caller, key: row.request_key },
    destinationId: toOptional(row.destination_id),
    failureReason: toOptional(row.failure_reason),
    paidAt: toOptionalDate(row.paid_at),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
  });
}

export class KnexSettlementRepository extends KnexTable<SettlementRow> implements SettlementRepository {
  protected readonly tableName = 'settlements';

  private scoped(scope: AccountScope) {
    return this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
  }

  async insert(settlement: Settlement): Promise<void> {
    try {
      await this.insertRow(toRow(settlement));
    } catch (error) {
      // The unique indexes are the rules: two workers making one period's batch at once, two
      // requests of one key. The unit of work runs again and finds the other's settlement.
      if (isDuplicateKeyError(error, SCHEDULED_PART_UNIQUE)) {
        throw new ConcurrentUpdateError('A scheduled settlement of this period exists already.', 'settlement_conflict');
      }
      if (isDuplicateKeyError(error, REQUEST_KEY_UNIQUE)) {
        throw new ConcurrentUpdateError('A settlement of this request exists already.', 'settlement_conflict');
      }
      throw error;
    }
  }

  async findById(scope: AccountScope, id: string): Promise<Settlement | undefined> {
    const row = await this.first(this.scoped(scope).where({ id }));
    return row === undefined ? undefined : toEntity(row);
  }

  async findByRequestKey(scope: AccountScope, requestKey: RequestKey): Promise<Settlement | undefined> {
    const row = await this.first(this.scoped(scope).where({ request_caller: requestKey.caller, request_key: requestKey.key }));
    return row === undefined ? undefined : toEntity(row);
  }

  async forgetRequestKey(scope: AccountScope, id: string): Promise<void> {
    await this.changed(this.scoped(scope).where({ id }).update({ request_caller: null, request_key: null }));
  }

  async findByIdForUpdate(scope: AccountScope, id: string): Promise<Settlement | undefined> {
    const query = this.scoped(scope).where({ id });
    const row = await this.first(this.context.lockedRead(query));
    return row === undefined ? undefined : toEntity(row);
  }

  /** Leaves `request_key` alone: a settlement read before its key was forgotten must not bring the key back. */
  async update(settlement: Settlement): Promise<void> {
    const { id, merchant_id, mode, request_caller: _requestCaller, request_key: _requestKey, ...columns } = toRow(settlement);
    const changed = await this.changed(this.table().where({ id, merchant_id, mode }).update(columns));
    if (changed === 0) throw new Error(`Unknown settlement ${id}`);
  }

  async list(scope: AccountScope, page: PageRequest): Promise<Page<Settlement>> {
    const query = this.scoped(scope);
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'settlements', scope, page.startingAfter, 'settlement'));
    }
    // One extra row tells whether another page follows without a COUNT.
    const rows = await this.rows(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(toEntity), hasMore: rows.length > page.limit };
  }

  async findScheduled(scope: AccountScope, periodEnd: Date): Promise<Settlement | undefined> {
    const row = await this.first(
      this.scoped(scope)
        .where({ scheduled_period_end: toMillis(periodEnd) })
        .orderBy('scheduled_part', 'asc'),
    );
    return row === undefined ? undefined : toEntity(row);
  }

  async findUnfinished(mode: Mode, limit: number): Promise<Settlement[]> {
    const rows = await this.rows(this.table().where({ mode }).whereIn('status', ['pending', 'processing']).orderBy('seq', 'asc').limit(limit, INLINE));
    return rows.map(toEntity);
  }

  async findSettleable(scope: AccountScope, releasedBefore: Date): Promise<PaymentIntent[]> {
    const rows = await this.rows<PaymentIntentRow>(
      this.waitingIntents(scope)
        .whereNotNull('pi.released_at')
        .where('pi.released_at', '<=', releasedBefore.getTime())
        .orderBy('pi.released_at', 'asc')
        .orderBy('pi.seq', 'asc'),
    );
    return rows.map(toPaymentIntent);
  }

  async findReleasing(scope: AccountScope, dueBefore: Date): Promise<PaymentIntent[]> {
    const rows = await this.rows<PaymentIntentRow>(
      this.waitingIntents(scope)
        .whereNull('pi.released_at')
        .whereNotNull('pi.available_at')
        .where('pi.available_at', '<', dueBefore.getTime())
        .orderBy('pi.available_at', 'asc')
        .orderBy('pi.seq', 'asc'),
    );
    return rows.map(toPaymentIntent);
  }

  /** The scope's channel-settled intents no settlement covers and no open or lost dispute blocks. */
  private waitingIntents(scope: AccountScope) {
    const db = this.context.db();
    return db('payment_intents as pi')
      .select('pi.*')
      .where({ 'pi.merchant_id': scope.merchantId, 'pi.mode': scope.mode, 'pi.status': 'channel_settled' })
      .whereNull('pi.settlement_id')
      .whereNotExists(
        db('disputes as d')
          .select(db.raw('1'))
          .whereRaw('d.payment_intent_id = pi.id')
          .andWhereRaw('d.merchant_id = pi.merchant_id')
          .andWhereRaw('d.mode = pi.mode')
          .whereIn('d.status', [...BLOCKING_DISPUTES]),
      );
  }

  async assignPayments(scope: AccountScope, settlementId: string, intentIds: readonly string[]): Promise<number> {
    const ids = [...new Set(intentIds)];
    let marked = 0;
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      // Conditional on NULL: of two settlements racing for a payment, only one marks it, and the
      // count tells the other it lost (the row lock of the UPDATE serialises them on MySQL).
      marked += await this.changed(
        this.context
          .db()('payment_intents')
          .whereIn('id', ids.slice(i, i + ID_CHUNK))
          .whereNull('settlement_id')
          .where({ merchant_id: scope.merchantId, mode: scope.mode })
          .update({ settlement_id: settlementId }),
      );
    }
    return marked;
  }

  async releasePayments(scope: AccountScope, settlementId: string): Promise<number> {
    return this.changed(
      this.context
        .db()('payment_intents')
        .where({ settlement_id: settlementId, merchant_id: scope.merchantId, mode: scope.mode })
        .update({ settlement_id: null }),
    );
  }
}
