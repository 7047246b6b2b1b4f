import type { AccountScope } from '../../common';
import type { DomainEvent } from '../domain/event.entity';
import type { EventOutbox } from '../ports/event-outbox.port';
export interface ListPaymentIntentEventsDeps {
  readonly events: EventOutbox;
}

export class ListPaymentIntentEvents {
  constructor(private readonly deps: ListPaymentIntentEventsDeps) {}

  /**
   * The events concerning one payment intent, oldest first: its own, its refunds' and its disputes'.
   * An intent has a handful (a status change each, a few per refund or dispute), so all of them.
   */
  execute(input: { scope: AccountScope; paymentIntentId: string }): Promise<DomainEvent[]> {
    return this.deps.events.listForPaymentIntent(input.scope, input.paymentIntentId);
  }
}
