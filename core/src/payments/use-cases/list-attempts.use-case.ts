import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';
export interface ListAttemptsDeps {
  readonly intents: PaymentIntentRepository;
  readonly attempts: PaymentAttemptRepository;
}

export class ListAttempts {
  constructor(private readonly deps: ListAttemptsDeps) {}

  /** Every attempt of the intent, oldest first; 404 for an intent of another merchant or mode. */
  async execute(input: { scope: AccountScope; intentId: string }): Promise<PaymentAttempt[]> {
    if (!(await this.deps.intents.findById(input.scope, input.intentId))) throw notFound('payment_intent', input.intentId);
    return this.deps.attempts.listForIntent(input.scope, input.intentId);
  }
}
