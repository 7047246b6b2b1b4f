import type { AccountScope, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { DomainEvent } from '../domain/event.entity';

/**
 * The append-only event log: written in the same transaction as the change it announces, read by
 * `GET /v1/events` and by the webhook relay.
 */
export interface EventOutbox {
  /** Appends one event; call it inside the unit of work of the change. */
  append(event: DomainEvent): Promise<void>;
  /**
   * Newest first. Throws CoreError `invalid_parameter` on `starting_after` when the cursor names
   * no event of this scope.
   */
  list(scope: AccountScope, page: PageRequest): Promise<Page<DomainEvent>>;
}
export const EventOutbox = token<EventOutbox>('EventOutbox');
