import type { Refund } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

/**
 * Refund as the API shows it (schema Refund in docs/openapi.json). The merchant's debit, the
 * channel and its ids for the order and the refund stay inside.
 */
export function presentRefund(refund: Refund): Record<string, unknown> {
  return compact({
    id: refund.id,
    object: 'refund',
    mode: refund.mode,
    payment_intent: refund.paymentIntentId,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    failure_code: refund.failureCode,
    metadata: { ...refund.metadata },
    created: timestamp(refund.created),
    succeeded_at: refund.succeededAt && timestamp(refund.succeededAt),
  });
}
