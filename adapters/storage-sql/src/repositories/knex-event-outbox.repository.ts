import type { AccountScope, DomainEvent, EventData, EventOutbox, Mode, Page, PageRequest } from '@payments/core';
import { KnexTable } from '../knex-context';
import { fromJson, toDate, toMillis, type BigIntValue } from '../mapping/column-values';
import { cursorSeq } from './cursor';

export interface EventRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  type: string;
  created_at: BigIntValue;
  data: string;
}

export function eventFromRow(row: EventRow): DomainEvent {
  return {
    id: row.id,
    type: row.type,
    merchantId: row.merchant_id,
    mode: row.mode,
    created: toDate(row.created_at),
    data: fromJson<EventData>(row.data),
  };
}

export class KnexEventOutbox extends KnexTable<EventRow> implements EventOutbox {
  protected readonly tableName = 'events';

  async append(event: DomainEvent): Promise<void> {
    await this.table().insert({
      id: event.id,
      merchant_id: event.merchantId,
      mode: event.mode,
      type: event.type,
      created_at: toMillis(event.created),
      data: JSON.stringify(event.data),
    });
  }

  async list(scope: AccountScope, page: PageRequest): Promise<Page<DomainEvent>> {
    const query = this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context.db(), 'events', scope, page.startingAfter, 'event'));
    }
    const rows = await query.orderBy('seq', 'desc').limit(page.limit + 1);
    return { data: rows.slice(0, page.limit).map(eventFromRow), hasMore: rows.length > page.limit };
  }
}
