import type { AccountScope, DomainEvent, EventData, EventFilter, EventOutbox, Mode, Page, PageRequest } from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { fromJson, toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';
import { cursorSeq } from './cursor';

export interface EventRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  type: string;
  created_at: BigIntValue;
  data: string;
  payment_intent_id: string | null;
}

export function eventFromRow(row: EventRow): DomainEvent {
  return withoutUndefined({
    id: row.id,
    type: row.type,
    merchantId: row.merchant_id,
    mode: row.mode,
    created: toDate(row.created_at),
    data: fromJson<EventData>(row.data),
    paymentIntentId: toOptional(row.payment_intent_id),
  });
}

export class KnexEventOutbox extends KnexTable<EventRow> implements EventOutbox {
  protected readonly tableName = 'events';

  private scoped(scope: AccountScope) {
    return this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
  }

  async append(event: DomainEvent): Promise<void> {
    await this.insertRow({
      id: event.id,
      merchant_id: event.merchantId,
      mode: event.mode,
      type: event.type,
      created_at: toMillis(event.created),
      data: JSON.stringify(event.data),
      payment_intent_id: toNullable(event.paymentIntentId),
    });
  }

  /** By (merchant, mode, seq), or (merchant, mode, type, seq) with a type: an index range either way. */
  async list(scope: AccountScope, filter: EventFilter, page: PageRequest): Promise<Page<DomainEvent>> {
    const query = this.scoped(scope);
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'events', scope, page.startingAfter, 'event'));
    }
    if (filter.type !== undefined) query.where('type', filter.type);
    const rows = await this.rows(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(eventFromRow), hasMore: rows.length > page.limit };
  }

  async findById(scope: AccountScope, id: string): Promise<DomainEvent | undefined> {
    const row = await this.first(this.scoped(scope).where({ id }));
    return row === undefined ? undefined : eventFromRow(row);
  }

  /** One range of the (merchant, mode, payment_intent_id, seq) index. */
  async listForPaymentIntent(scope: AccountScope, paymentIntentId: string): Promise<DomainEvent[]> {
    const rows = await this.rows(this.scoped(scope).where({ payment_intent_id: paymentIntentId }).orderBy('seq', 'asc'));
    return rows.map(eventFromRow);
  }
}
