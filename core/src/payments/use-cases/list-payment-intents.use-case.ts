import type { AccountScope } from '../../shared';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { Page, PageRequest } from '../../shared';
import type { PaymentIntentFilter, PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export class ListPaymentIntents {
  constructor(private readonly intents: PaymentIntentRepository) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; filter: PaymentIntentFilter; page: PageRequest }): Promise<Page<PaymentIntent>> {
    return this.intents.list(input.scope, input.filter, input.page);
  }
}
