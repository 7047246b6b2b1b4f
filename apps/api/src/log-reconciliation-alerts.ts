import type { Amount, ReconciliationAlerts, ReconciliationItem } from '@payments/core';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';

/** Amounts as a log line carries them: exact digits and currency. */
function amounts(list: readonly Amount[]): string[] {
  return list.map((amount) => `${amount.amount.toString()} ${amount.currency}`);
}

/** What a log line says of a break: ids, amounts and the reason; a channel's reference is our own id or its dispute id, never a secret. */
function fields(item: ReconciliationItem): Record<string, unknown> {
  return {
    break: item.id,
    channel: item.channel,
    mode: item.mode,
    kind: item.kind,
    reference: item.reference,
    reason: item.reason,
    statement: amounts(item.statement),
    ledger: amounts(item.ledger),
    ...(item.merchantId === undefined ? {} : { merchant: item.merchantId }),
  };
}

/**
 * Reconciliation breaks as log lines and counters (`payments_reconciliation_breaks_opened_total`,
 * `…_cleared_total`); the open ones are the `payments_reconciliation_breaks` gauge.
 */
export class LogReconciliationAlerts implements ReconciliationAlerts {
  constructor(
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics,
  ) {}

  breakOpened(item: ReconciliationItem): void {
    this.metrics.reconciliationBreaksOpened.inc({ channel: item.channel, mode: item.mode, reason: item.reason });
    this.logger.warn(fields(item), `reconciliation break: ${item.reason} (npm run -s admin -- recon breaks; docs/operations.md)`);
  }

  breakCleared(item: ReconciliationItem): void {
    this.metrics.reconciliationBreaksCleared.inc({ channel: item.channel, mode: item.mode, reason: item.reason });
    this.logger.info(fields(item), 'reconciliation break cleared: the statement and the ledger match now');
  }
}
