import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import type { DomainEvent } from '../domain/event.entity';
import type { EventOutbox } from '../ports/event-outbox.port';
export interface GetEventDeps {
  readonly events: EventOutbox;
}

export class GetEvent {
  constructor(private readonly deps: GetEventDeps) {}

  /** One event of the scope; another merchant's or mode's is 404, like an unknown one. */
  async execute(input: { scope: AccountScope; id: string }): Promise<DomainEvent> {
    const event = await this.deps.events.findById(input.scope, input.id);
    if (!event) throw notFound('event', input.id);
    return event;
  }
}
