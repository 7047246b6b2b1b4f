import type { AccountScope } from '../../shared';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import { notFound } from '../../shared';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export class GetPaymentIntent {
  constructor(private readonly intents: PaymentIntentRepository) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<PaymentIntent> {
    const intent = await this.intents.findById(input.scope, input.id);
    if (!intent) throw notFound('payment_intent', input.id);
    return intent;
  }
}
