import type { AccountScope, Page, PageRequest } from '../../common';
import type { DomainEvent } from '../domain/event.entity';
import type { EventFilter, EventOutbox } from '../ports/event-outbox.port';
export interface ListEventsDeps {
  readonly events: EventOutbox;
}

export class ListEvents {
  constructor(private readonly deps: ListEventsDeps) {}

  /** The scope's events, newest first, the same ids and bodies webhooks carry. */
  execute(input: { scope: AccountScope; filter?: EventFilter; page: PageRequest }): Promise<Page<DomainEvent>> {
    return this.deps.events.list(input.scope, input.filter ?? {}, input.page);
  }
}
