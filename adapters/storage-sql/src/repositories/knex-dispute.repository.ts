import type { Mode } from '@payments/core';
import {
  CoreError,
  RULED_DISPUTE_STATUSES,
  type AccountScope,
  type Dispute,
  type DisputeFilter,
  type DisputeRepository,
  type DisputeStatus,
  type Page,
  type PageRequest,
} from '@payments/core';
import { DISPUTE_MODE_INDEXES } from '../migrations/015-dispute-modes-and-duplicate-payments.migration';
import { isDuplicateKeyError } from '../sql-errors';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toDispute, toDisputeRow, type DisputeRow } from '../mapping/dispute.row';
import { cursorSeq } from './cursor';

const CHANNEL_DISPUTE_UNIQUE = {
  indexName: DISPUTE_MODE_INDEXES.channelModeDispute,
  sqliteColumns: ['disputes.channel', 'disputes.mode', 'disputes.channel_dispute_id'],
} as const;

/** Raised when a channel dispute is stored twice; callers read the stored one instead. */
export function disputeExists(cause?: unknown): CoreError {
  return new CoreError('dispute_exists', 'conflict', 'This channel dispute is recorded already.', cause === undefined ? {} : { cause });
}

export class KnexDisputeRepository extends KnexTable<DisputeRow> implements DisputeRepository {
  protected readonly tableName = 'disputes';

  /** The unique (channel, mode, channel_dispute_id) refuses a second row for one channel dispute. */
  async insert(dispute: Dispute): Promise<void> {
    try {
      await this.insertRow(toDisputeRow(dispute));
    } catch (error) {
      if (isDuplicateKeyError(error, CHANNEL_DISPUTE_UNIQUE)) throw disputeExists(error);
      throw error;
    }
  }

  async findById(scope: AccountScope, id: string): Promise<Dispute | undefined> {
    const row = await this.first(this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode }));
    return row === undefined ? undefined : toDispute(row);
  }

  async findByIdForUpdate(scope: AccountScope, id: string): Promise<Dispute | undefined> {
    const query = this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode });
    const row = await this.first(this.context.lockedRead(query));
    return row === undefined ? undefined : toDispute(row);
  }

  async findByChannelDisputeId(channel: string, mode: Mode, channelDisputeId: string): Promise<Dispute | undefined> {
    const row = await this.first(this.table().where({ channel, mode, channel_dispute_id: channelDisputeId }));
    return row === undefined ? undefined : toDispute(row);
  }

  async findLatestForIntent(scope: AccountScope, paymentIntentId: string): Promise<Dispute | undefined> {
    const row = await this.first(
      this.table().where({ merchant_id: scope.merchantId, mode: scope.mode, payment_intent_id: paymentIntentId }).orderBy('seq', 'desc'),
    );
    return row === undefined ? undefined : toDispute(row);
  }

  async update(dispute: Dispute): Promise<void> {
    const { id, merchant_id, mode, ...columns } = toDisputeRow(dispute);
    const changed = await this.changed(this.table().where({ id, merchant_id, mode }).update(columns));
    if (changed === 0) throw new Error(`No dispute ${id} to update`);
  }

  async findDueForCheck(query: { readonly mode: Mode; readonly updatedBefore: Date; readonly now: Date; readonly limit: number }): Promise<Dispute[]> {
    const rows = await this.rows(
      this.table()
        .where({ mode: query.mode })
        .whereNotIn('status', RULED_DISPUTE_STATUSES)
        .where('updated_at', '<=', query.updatedBefore.getTime())
        .where((due) => void due.whereNull('next_check_at').orWhere('next_check_at', '<=', query.now.getTime()))
        .orderBy('updated_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(query.limit, INLINE),
    );
    return rows.map(toDispute);
  }

  /** `next_check_at` (migration 011) is no column of the entity, so `update` never writes it. */
  async setNextCheck(id: string, nextCheckAt: Date): Promise<void> {
    await this.changed(this.context.db()('disputes').where({ id }).update({ next_check_at: nextCheckAt.getTime() }));
  }

  async list(scope: AccountScope, filter: DisputeFilter, page: PageRequest): Promise<Page<Dispute>> {
    const query = this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'disputes', scope, page.startingAfter, 'dispute'));
    }
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.paymentIntentId !== undefined) query.where('payment_intent_id', filter.paymentIntentId);
    // One extra row tells whether another page follows without a COUNT.
    const rows = await this.rows(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(toDispute), hasMore: rows.length > page.limit };
  }

  async statusesByPayment(scope: AccountScope, paymentIntentIds: readonly string[]): Promise<ReadonlyMap<string, readonly DisputeStatus[]>> {
    const statuses = new Map<string, DisputeStatus[]>();
    if (paymentIntentIds.length === 0) return statuses;
    const rows = await this.rows<{ payment_intent_id: string; status: DisputeStatus }>(
      this.table()
        .where({ merchant_id: scope.merchantId, mode: scope.mode })
        .whereIn('payment_intent_id', [...paymentIntentIds])
        .orderBy('seq', 'asc')
        .select('payment_intent_id', 'status'),
    );
    for (const row of rows) statuses.set(row.payment_intent_id, [...(statuses.get(row.payment_intent_id) ?? []), row.status]);
    return statuses;
  }
}
