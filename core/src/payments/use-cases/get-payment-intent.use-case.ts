import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';
export interface GetPaymentIntentDeps {
  readonly intents: PaymentIntentRepository;
}

export class GetPaymentIntent {
  constructor(private readonly deps: GetPaymentIntentDeps) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<PaymentIntent> {
    const intent = await this.deps.intents.findById(input.scope, input.id);
    if (!intent) throw notFound('payment_intent', input.id);
    return intent;
  }
}
