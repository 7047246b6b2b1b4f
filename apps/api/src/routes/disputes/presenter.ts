import type { Dispute } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

/** Dispute as the API shows it (schema Dispute in docs/openapi.json). The channel and its own id for it stay inside. */
export function presentDispute(dispute: Dispute): Record<string, unknown> {
  return compact({
    id: dispute.id,
    object: 'dispute',
    mode: dispute.mode,
    payment_intent: dispute.paymentIntentId,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    held: dispute.held && { amount: dispute.held.amount, currency: dispute.held.currency },
    fee: dispute.fee && { amount: dispute.fee.amount, currency: dispute.fee.currency },
    reason: dispute.reason,
    evidence: { ...dispute.evidence },
    due_by: timestamp(dispute.dueBy),
    opened_at: timestamp(dispute.openedAt),
    closed_at: dispute.closedAt && timestamp(dispute.closedAt),
    created: timestamp(dispute.created),
  });
}
