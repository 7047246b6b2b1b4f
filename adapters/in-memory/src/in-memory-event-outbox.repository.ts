import type { AccountScope, DomainEvent, EventOutbox, Page, PageRequest } from '@payments/core';
import { pageNewestFirst } from './in-memory-pagination';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryEventOutbox implements EventOutbox {
  constructor(private readonly store: InMemoryStore) {}

  append(event: DomainEvent): Promise<void> {
    return this.store.atomic(() => {
      this.store.appendRow(this.store.tables.events, event, 'event');
    });
  }

  list(scope: AccountScope, page: PageRequest): Promise<Page<DomainEvent>> {
    return this.store.atomic(() => pageNewestFirst(this.store.tables.events, scope, page, 'event'));
  }
}
