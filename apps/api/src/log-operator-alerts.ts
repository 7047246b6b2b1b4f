import type { DuplicatePaymentAlert, OperatorAlerts } from '@payments/core';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';

/**
 * Operator alerts as a warn log line and a counter (`payments_duplicate_payments_total`): alert
 * on any increase. The line carries ids and the amount, never a credential.
 */
export class LogOperatorAlerts implements OperatorAlerts {
  constructor(
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics,
  ) {}

  duplicatePayment(alert: DuplicatePaymentAlert): void {
    this.metrics.duplicatePayments.inc({ mode: alert.mode });
    this.logger.warn(
      {
        payment_attempt: alert.attemptId,
        payment_intent: alert.paymentIntentId,
        paid_by: alert.paidBy,
        merchant: alert.merchantId,
        mode: alert.mode,
        amount: alert.amount,
        currency: alert.currency,
        channel: alert.channel,
      },
      'duplicate payment: a second attempt succeeded after its payment intent was paid; the amount is owed back to the payer (npm run -s admin -- payments duplicates)',
    );
  }
}
