import type { AccountScope, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { DomainEvent } from '../domain/event.entity';

/**
 * The append-only event log: written in the same transaction as the change it announces, read by
 * `GET /v1/events` and by the webhook relay.
 */
export interface EventFilter {
  /** Only events of this type. */
  readonly type?: string;
}

export interface EventOutbox {
  /** Appends one event; call it inside the unit of work of the change. */
  append(event: DomainEvent): Promise<void>;
  /**
   * Newest first. Throws CoreError `invalid_parameter` on `starting_after` when the cursor names
   * no event of this scope.
   */
  list(scope: AccountScope, filter: EventFilter, page: PageRequest): Promise<Page<DomainEvent>>;
  /** The event of this merchant and mode, or undefined (another merchant's id included). */
  findById(scope: AccountScope, id: string): Promise<DomainEvent | undefined>;
  /** Every event concerning the payment intent (`DomainEvent.paymentIntentId`), oldest first. */
  listForPaymentIntent(scope: AccountScope, paymentIntentId: string): Promise<DomainEvent[]>;
}
export const EventOutbox = token<EventOutbox>('EventOutbox');
