import { invalidParameter } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';

export const DUPLICATE_PAYMENTS_MAX_LIMIT = 1000;
export interface ListDuplicatePaymentsDeps {
  readonly attempts: PaymentAttemptRepository;
}

/**
 * For operators: the second payments of already paid intents, of every merchant and mode, latest
 * first. Each attempt's amount is owed back to its payer (booked as `duplicate_payment:<attempt>`
 * on `payer_refunds_due`) until it is refunded through the channel.
 */
export class ListDuplicatePayments {
  constructor(private readonly deps: ListDuplicatePaymentsDeps) {}

  async execute(input: { limit: number }): Promise<PaymentAttempt[]> {
    if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > DUPLICATE_PAYMENTS_MAX_LIMIT) {
      throw invalidParameter('limit', `limit must be a whole number from 1 to ${DUPLICATE_PAYMENTS_MAX_LIMIT}.`);
    }
    return this.deps.attempts.listDuplicates(input.limit);
  }
}
