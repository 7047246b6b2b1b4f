import type { DomainEvent } from '../domain/event.entity';
import type { AccountScope } from '../../shared';
import type { EventOutbox } from '../ports/event-outbox.port';
import type { Page, PageRequest } from '../../shared';

export class ListEvents {
  constructor(private readonly events: EventOutbox) {}

  /** The scope's events, newest first, the same ids and bodies webhooks carry. */
  execute(input: { scope: AccountScope; page: PageRequest }): Promise<Page<DomainEvent>> {
    return this.events.list(input.scope, input.page);
  }
}
