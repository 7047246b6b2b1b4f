import type { AccountScope, DomainEvent, EventFilter, EventOutbox, Page, PageRequest } from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { copiesOf, inScope, oldestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryEventOutbox implements EventOutbox {
  constructor(private readonly store: InMemoryStore) {}

  append(event: DomainEvent): Promise<void> {
    return this.store.atomic(() => {
      this.store.appendRow(this.store.tables.events, event, 'event');
    });
  }

  list(scope: AccountScope, filter: EventFilter, page: PageRequest): Promise<Page<DomainEvent>> {
    return this.store.atomic(() =>
      pageNewestFirst(this.store.tables.events, scope, page, 'event', (event) => filter.type === undefined || event.type === filter.type),
    );
  }

  findById(scope: AccountScope, id: string): Promise<DomainEvent | undefined> {
    return this.store.atomic(() => {
      const row = this.store.tables.events.find((candidate) => candidate.value.id === id && inScope(candidate.value, scope));
      return row && deepCopy(row.value);
    });
  }

  listForPaymentIntent(scope: AccountScope, paymentIntentId: string): Promise<DomainEvent[]> {
    return this.store.atomic(() =>
      copiesOf(this.store.tables.events.filter((row) => inScope(row.value, scope) && row.value.paymentIntentId === paymentIntentId).sort(oldestFirst)),
    );
  }
}
