import type { AccountScope, Page, PageRequest } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentIntentFilter, PaymentIntentRepository } from '../ports/payment-intent.repository.port';
export interface ListPaymentIntentsDeps {
  readonly intents: PaymentIntentRepository;
}

export class ListPaymentIntents {
  constructor(private readonly deps: ListPaymentIntentsDeps) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; filter: PaymentIntentFilter; page: PageRequest }): Promise<Page<PaymentIntent>> {
    return this.deps.intents.list(input.scope, input.filter, input.page);
  }
}
