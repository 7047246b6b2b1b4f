import type { Settlement } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

/** Settlement as the API shows it (schema Settlement in docs/openapi.json): no destination or failure details. */
export function presentSettlement(settlement: Settlement): Record<string, unknown> {
  return compact({
    id: settlement.id,
    object: 'settlement',
    mode: settlement.mode,
    status: settlement.status,
    amount: { amount: settlement.amount.amount, currency: settlement.amount.currency },
    payments: settlement.payments,
    period_start: timestamp(settlement.periodStart),
    period_end: timestamp(settlement.periodEnd),
    created: timestamp(settlement.created),
  });
}

