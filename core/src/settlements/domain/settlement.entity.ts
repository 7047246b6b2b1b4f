import type { Mode, Money } from '../../common';
import type { RequestKey } from '../../merchants';

export type SettlementStatus = 'pending' | 'processing' | 'paid' | 'failed';
export const SETTLEMENT_STATUSES: readonly SettlementStatus[] = ['pending', 'processing', 'paid', 'failed'];

/**
 * A payout of a merchant's available funds (schema Settlement in docs/openapi.json). `amount` is
 * the sum of the nets of the payments it covers; the covered intents name it, so a payment is
 * settled once.
 */
export interface Settlement {
  readonly id: string;
  readonly merchantId: string;
  readonly mode: Mode;
  readonly status: SettlementStatus;
  readonly amount: Money;
  /** How many payment intents it covers. */
  readonly payments: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  /** `scheduled` batches are unique per merchant, mode, period end and part; `manual` ones come from POST /v1/settlements. */
  readonly trigger: 'scheduled' | 'manual';
  /**
   * Scheduled batches: which part of its period's batch this is (1, 2 …). A period whose payments
   * sum past 2^53 − 1 minor units is paid as several settlements that each fit (so every amount
   * shown and sent to the payout provider is exact); they are made together. Absent on manual ones.
   */
  readonly part?: number;
  /**
   * The Idempotency-Key of the manual request that made it, and whose key it is (never shown): a
   * retry of that request after a crash finds its settlement instead of answering
   * `nothing_to_settle`.
   */
  readonly requestKey?: RequestKey;
  /** The payout destination it is paid to, once chosen. */
  readonly destinationId?: string;
  /** Why the payout failed (for operators; never shown with account details). */
  readonly failureReason?: string;
  readonly paidAt?: Date;
  readonly created: Date;
  readonly updated: Date;
}
