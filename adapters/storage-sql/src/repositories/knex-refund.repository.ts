import {
  type AccountScope,
  type IntentRefundTotals,
  type Mode,
  type Page,
  type PageRequest,
  type Refund,
  type RefundFilter,
  type RefundRepository,
} from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toNumber, type BigIntValue } from '../mapping/column-values';
import { toRefund, toRefundRow, type RefundRow } from '../mapping/refund.row';
import { cursorSeq } from './cursor';

export class KnexRefundRepository extends KnexTable<RefundRow> implements RefundRepository {
  protected readonly tableName = 'refunds';

  async insert(refund: Refund): Promise<void> {
    await this.insertRow(toRefundRow(refund));
  }

  async findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const row = await this.first(this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode }));
    return row === undefined ? undefined : toRefund(row);
  }

  async findByIdForUpdate(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const query = this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode });
    const row = await this.first(this.context.lockedRead(query));
    return row === undefined ? undefined : toRefund(row);
  }

  async findForChannel(mode: Mode, id: string): Promise<Refund | undefined> {
    const row = await this.first(this.table().where({ id, mode }));
    return row === undefined ? undefined : toRefund(row);
  }

  async update(refund: Refund): Promise<void> {
    const { id, merchant_id, mode, ...columns } = toRefundRow(refund);
    const changed = await this.changed(this.table().where({ id, merchant_id, mode }).update(columns));
    if (changed === 0) throw new Error(`No refund ${id} to update`);
  }

  /** Sums of at most the intent's amount (2^53 − 1) each: exact as numbers. */
  async totalsForIntent(scope: AccountScope, paymentIntentId: string): Promise<IntentRefundTotals> {
    const db = this.context.db();
    const row = await this.first<{ refunded: BigIntValue; debited: BigIntValue; cleared: BigIntValue }>(
      db<RefundRow>('refunds')
        .where({ merchant_id: scope.merchantId, mode: scope.mode, payment_intent_id: paymentIntentId })
        .whereNot('status', 'failed')
        .select(
          db.raw('COALESCE(SUM(amount), 0) AS refunded'),
          db.raw('COALESCE(SUM(debit_amount), 0) AS debited'),
          // A refund made before the channel's side was recorded moved it by its debit.
          db.raw('COALESCE(SUM(COALESCE(cleared_amount, debit_amount)), 0) AS cleared'),
        ),
    );
    return {
      refunded: toNumber(row?.refunded ?? 0),
      debited: toNumber(row?.debited ?? 0),
      cleared: toNumber(row?.cleared ?? 0),
    };
  }

  async list(scope: AccountScope, filter: RefundFilter, page: PageRequest): Promise<Page<Refund>> {
    const query = this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'refunds', scope, page.startingAfter, 'refund'));
    }
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.paymentIntentId !== undefined) query.where('payment_intent_id', filter.paymentIntentId);
    // One extra row tells whether another page follows without a COUNT.
    const rows = await this.rows(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(toRefund), hasMore: rows.length > page.limit };
  }

  async findDueForCheck(query: { readonly mode: Mode; readonly createdBefore: Date; readonly now: Date; readonly limit: number }): Promise<Refund[]> {
    const rows = await this.rows(
      this.table()
        .where({ mode: query.mode, status: 'pending' })
        .where('created_at', '<=', query.createdBefore.getTime())
        .where((due) => void due.whereNull('next_check_at').orWhere('next_check_at', '<=', query.now.getTime()))
        .orderBy('created_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(query.limit, INLINE),
    );
    return rows.map(toRefund);
  }

  /** `next_check_at` is no column of the entity, so `update` never writes it. */
  async setNextCheck(id: string, nextCheckAt: Date): Promise<void> {
    await this.changed(this.context.db()('refunds').where({ id }).update({ next_check_at: nextCheckAt.getTime() }));
  }
}
