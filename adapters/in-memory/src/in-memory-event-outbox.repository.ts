import type { AccountScope, DomainEvent, EventOutbox, Page, PageRequest } from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryEventOutbox implements EventOutbox {
  constructor(private readonly store: InMemoryStore) {}

  append(event: DomainEvent): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.events.some((row) => row.value.id === event.id)) throw new Error(`Duplicate event id ${event.id}`);
      this.store.tables.events.push({ seq: this.store.nextSequence(), value: deepCopy(event) });
    });
  }

  list(scope: AccountScope, page: PageRequest): Promise<Page<DomainEvent>> {
    return this.store.atomic(() => pageNewestFirst(this.store.tables.events, scope, page, 'event'));
  }
}
