import type { Mode } from './mode';
import { token } from './token';

/** A payer paid an intent twice: the second attempt's amount is owed back to them. */
export interface DuplicatePaymentAlert {
  readonly attemptId: string;
  readonly paymentIntentId: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly amount: number;
  readonly currency: string;
  readonly channel: string;
  /** The attempt that had paid the intent first. */
  readonly paidBy: string;
}

/**
 * What operators must hear about as it happens (a log line, a metric), beside what the data
 * records durably. Called once the change it reports has committed; never throws.
 */
export interface OperatorAlerts {
  duplicatePayment(alert: DuplicatePaymentAlert): void;
}
export const OperatorAlerts = token<OperatorAlerts>('OperatorAlerts');
