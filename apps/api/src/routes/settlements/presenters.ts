import { ID_PATTERNS, type PayoutDestination, type Settlement, SETTLEMENT_STATUSES } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, dateTime, idMatching, list, mode, MONEY, object, ref } from '../../openapi/json-schema';

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

/** A test-mode settlement as a manual request answers it: paid at once by the simulated bank. */
export const SETTLEMENT_EXAMPLE = {
  id: 'st_7KI3F6H43Q6IW6HBIH5VUP6KQQ',
  object: 'settlement',
  mode: 'test',
  status: 'paid',
  amount: { amount: 1254731, currency: 'THB' },
  payments: 52,
  period_start: '2026-09-01T10:04:00Z',
  period_end: '2026-09-07T16:20:00Z',
  created: '2026-09-07T16:20:00Z',
} as const;

/** The answers of settlements. */
export const SETTLEMENT_SCHEMAS = components({
  ...MONEY,
  Settlement: {
    ...object(
      ['id', 'object', 'mode', 'status', 'amount', 'period_start', 'period_end', 'created'],
      {
        id: { type: 'string', pattern: ID_PATTERNS.settlement.source, description: 'Unique identifier, `st_…`; also the payout’s reference at the provider.' },
        object: { ...constant('settlement'), description: 'Always `settlement`.' },
        mode: { ...mode, description: 'The mode whose payments it pays.' },
        status: {
          type: 'string',
          enum: [...SETTLEMENT_STATUSES],
          description:
            'pending (made; its amount left the available balance) → processing (the payout was sent) → paid, or failed (the amount returns to the available balance and its payments are freed).',
        },
        amount: {
          ...ref('Money'),
          description:
            'What is paid out, in the settlement currency: the whole available balance, that is the nets of the payments it covers, less what the available balance lacked or plus what it held beyond them (adjustments such as a failed refund given back). At most 2^53 − 1: a batch whose payments sum past it is paid as several settlements of the same period.',
        },
        payments: { type: 'integer', description: 'How many payments it covers; each payment is settled once. 0 for a settlement of adjustments alone.' },
        period_start: { ...dateTime, description: 'Start of the period: the earliest release it covers (manual), or the period’s start (scheduled).' },
        period_end: { ...dateTime, description: 'End of the period, exclusive: the moment of the request (manual), or the period’s end (scheduled).' },
        created: { ...dateTime, description: 'When it was made.' },
      },
      'A payout of released payments’ nets to the merchant’s bank account.',
    ),
    examples: [SETTLEMENT_EXAMPLE],
  },
  SettlementList: list('Settlement', SETTLEMENT_EXAMPLE),
});

/** The answers of payout methods (dashboard). */
export const PAYOUT_METHOD_SCHEMAS = components({
  PayoutMethod: object(
    ['id', 'object', 'mode', 'type', 'currency', 'account_holder', 'bank_code', 'account_number', 'account_number_last4', 'status', 'default', 'created'],
    {
      id: idMatching(ID_PATTERNS.payout_destination),
      object: constant('payout_method'),
      mode,
      type: { type: 'string', enum: ['bank_account', 'simulated'] },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      account_holder: { type: 'string' },
      bank_code: { type: 'string' },
      account_number: { type: 'string', description: 'Masked: `****` and the last four characters.' },
      account_number_last4: { type: 'string' },
      status: { type: 'string', enum: ['unverified', 'verified', 'rejected'] },
      default: { type: 'boolean' },
      hold_until: { ...dateTime, description: 'Live settlements wait until then after a change of destination.' },
      created: dateTime,
    },
  ),
  PayoutMethodList: list('PayoutMethod'),
});
