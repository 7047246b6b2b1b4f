import { type Dispute, DISPUTE_STATUSES, ID_PATTERNS } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, currency, dateTime, int64, list, mode, MONEY, object, ref, stringMap } from '../../openapi/json-schema';

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

/** A dispute of the paid example intent, under review once evidence was sent. */
export const DISPUTE_EXAMPLE = {
  id: 'dp_xJkNMBAYob3uSX8IkZURhUxx',
  object: 'dispute',
  mode: 'test',
  payment_intent: 'pi_wRuAd6OgjF8fafigzwZwk6WP',
  status: 'under_review',
  amount: 25000,
  currency: 'THB',
  held: { amount: 24588, currency: 'THB' },
  reason: 'product_not_received',
  evidence: { tracking_number: 'TH1234567890', receipt: 'https://shop.example.com/receipts/1001' },
  due_by: '2026-09-12T09:30:00Z',
  opened_at: '2026-09-05T09:30:00Z',
  created: '2026-09-05T09:30:00Z',
} as const;

/** The answers of disputes. */
export const DISPUTE_SCHEMAS = components({
  ...MONEY,
  Dispute: {
    ...object(
      ['id', 'object', 'mode', 'payment_intent', 'status', 'amount', 'currency', 'evidence', 'opened_at', 'created'],
      {
        id: { type: 'string', pattern: ID_PATTERNS.dispute.source, description: 'Unique identifier, `dp_…`.' },
        object: { ...constant('dispute'), description: 'Always `dispute`.' },
        mode: { ...mode, description: 'The mode of the payment disputed.' },
        payment_intent: { type: 'string', description: 'The payment intent disputed.' },
        status: {
          type: 'string',
          enum: [...DISPUTE_STATUSES],
          description: 'opened → under_review (evidence received, or the channel says so) → won or lost (ruled, final).',
        },
        amount: { ...int64, description: 'Minor units of `currency` the payer claims: the whole ordered amount.' },
        currency: { ...currency, description: 'The payment intent’s currency.' },
        held: {
          ...ref('Money'),
          description:
            'What the dispute holds of the merchant’s balance while it runs (the net less what refunds took), in the settlement currency. Absent when the payment had no net yet.',
        },
        fee: { ...ref('Money'), description: 'The dispute fee debited when the dispute was lost.' },
        reason: { type: 'string', description: 'The channel’s reason for the dispute, as it gave it.' },
        evidence: { ...stringMap, description: 'The evidence sent so far, merged key by key from every submission.' },
        due_by: { ...dateTime, description: 'The last moment to send evidence.' },
        opened_at: { ...dateTime, description: 'When the channel opened it.' },
        closed_at: { ...dateTime, description: 'When it was ruled.' },
        created: { ...dateTime, description: 'When the service first heard of it.' },
      },
      'A payer’s challenge of a paid payment intent, through its channel.',
    ),
    examples: [DISPUTE_EXAMPLE],
  },
  DisputeList: list('Dispute', DISPUTE_EXAMPLE),
});
