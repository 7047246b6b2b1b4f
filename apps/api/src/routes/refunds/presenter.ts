import { ID_PATTERNS, type Refund, REFUND_FAILURE_CODES, REFUND_REASONS, REFUND_STATUSES } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, currency, dateTime, int64, list, mode, object, stringMap } from '../../openapi/json-schema';

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

/** The rules of making a refund, for the documents of both routes that make one. */
export const REFUND_CREATE_RULES =
  'Only a succeeded or channel_settled intent can be refunded (else 409 invalid_state_transition); an open dispute is 409 payment_disputed; ' +
  'the refunds that did not fail never add up to more than the intent amount (409 refund_exceeds_remaining, also after a lost dispute). ' +
  'The merchant is debited amount × net / intent amount in the settlement currency at once; a failed refund gives it back.';

/** A partial refund of the paid example intent, as its create call answers it. */
export const REFUND_PENDING_EXAMPLE = {
  id: 're_6ARALTDKWAYPRCBBH2ADCANQIF',
  object: 'refund',
  mode: 'test',
  payment_intent: 'pi_wRuAd6OgjF8fafigzwZwk6WP',
  amount: 5000,
  currency: 'THB',
  status: 'pending',
  reason: 'requested_by_customer',
  metadata: { ticket: 'T-2209' },
  created: '2026-09-03T08:15:00Z',
} as const;

/** The same refund once the channel reported the money returned. */
export const REFUND_EXAMPLE = { ...REFUND_PENDING_EXAMPLE, status: 'succeeded', succeeded_at: '2026-09-03T08:15:02Z' } as const;

/** The answers of refunds, in both documents. */
export const REFUND_SCHEMAS = components({
  Refund: {
    ...object(
      ['id', 'object', 'mode', 'payment_intent', 'amount', 'currency', 'status', 'metadata', 'created'],
      {
        id: { type: 'string', pattern: ID_PATTERNS.refund.source, description: 'Unique identifier, `re_…`.' },
        object: { ...constant('refund'), description: 'Always `refund`.' },
        mode: { ...mode, description: 'The mode of the key that made it.' },
        payment_intent: { type: 'string', pattern: ID_PATTERNS.payment_intent.source, description: 'The payment intent refunded.' },
        amount: { ...int64, description: "Minor units of the payment intent's currency, given back to the payer." },
        currency: { ...currency, description: 'The payment intent’s currency.' },
        status: { type: 'string', enum: [...REFUND_STATUSES], description: 'pending until the channel reports; succeeded and failed are final.' },
        reason: { type: 'string', enum: [...REFUND_REASONS], description: 'Why the merchant gives the money back, as given at creation.' },
        failure_code: {
          type: 'string',
          enum: [...REFUND_FAILURE_CODES],
          description: 'Why the channel did not return the money (when failed); the merchant’s debit is given back and the amount can be refunded again.',
        },
        metadata: { ...stringMap, description: 'The merchant’s own key-value pairs, as sent at creation.' },
        created: { ...dateTime, description: 'When it was asked for.' },
        succeeded_at: { ...dateTime, description: 'When the channel reported the money returned.' },
      },
      'Money returned to the payer of a paid payment intent, through the channel that took it. The merchant is debited its share of the net; the fee is not returned.',
    ),
    examples: [REFUND_EXAMPLE],
  },
  RefundList: list('Refund', REFUND_EXAMPLE),
});
