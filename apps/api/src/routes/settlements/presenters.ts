import type { PayoutDestination, Settlement } from '@payments/core';
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

/** A payout destination, masked: the account number shows its last four characters only. */
export function presentPayoutMethod(destination: PayoutDestination): Record<string, unknown> {
  return compact({
    id: destination.id,
    object: 'payout_method',
    mode: destination.mode,
    type: destination.type,
    currency: destination.currency,
    account_holder: destination.accountHolder,
    bank_code: destination.bankCode,
    account_number: `****${destination.accountNumberLast4}`,
    account_number_last4: destination.accountNumberLast4,
    status: destination.status,
    default: destination.isDefault,
    hold_until: destination.holdUntil && timestamp(destination.holdUntil),
    created: timestamp(destination.created),
  });
}
