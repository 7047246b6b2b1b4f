import type { AccountScope } from '../../shared';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import { notFound } from '../../shared';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export class ListAttempts {
  constructor(
    private readonly intents: PaymentIntentRepository,
    private readonly attempts: PaymentAttemptRepository,
  ) {}

  /** Every attempt of the intent, oldest first; 404 for an intent of another merchant or mode. */
  async execute(input: { scope: AccountScope; intentId: string }): Promise<PaymentAttempt[]> {
    if (!(await this.intents.findById(input.scope, input.intentId))) throw notFound('payment_intent', input.intentId);
    return this.attempts.listForIntent(input.scope, input.intentId);
  }
}
