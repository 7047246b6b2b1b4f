import {
  ID_PATTERNS,
  SETTLEMENT_STATUSES,
  SUMMARY_LINE_TYPES,
  type PayoutDestination,
  type Settlement,
  type SettlementSummary,
  type SummaryLineTotal,
} from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, dateTime, idMatching, int64, list, mode, MONEY, object, ref } from '../../openapi/json-schema';

function presentLineTotal(total: SummaryLineTotal): Record<string, unknown> {
  return { count: total.count, amount: total.amount };
}

/**
 * A settlement's summary (schema SettlementSummary): BigInt sums, so the answer goes out through
 * `exactJson` (a type's sum may pass 2^53 − 1 where the settlement's amount does not).
 */
export function presentSettlementSummary(summary: SettlementSummary): Record<string, unknown> {
  const { release, ...others } = summary.lines;
  return {
    lines: {
      release: { ...presentLineTotal(release), gross: release.gross, fee: release.fee, net: release.net },
      ...Object.fromEntries(Object.entries(others).map(([type, total]) => [type, presentLineTotal(total)])),
    },
    other: summary.other,
  };
}

/** Settlement as the API shows it (schema Settlement in docs/openapi.json): no destination or failure details; with its summary. */
export function presentSettlement(settlement: Settlement, summary: SettlementSummary): Record<string, unknown> {
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
    summary: presentSettlementSummary(summary),
  });
}

/** A list's settlement without its summary: `SummarizeSettlements` answers one per settlement asked, so this is a bug. */
export function missingSummary(id: string): never {
  throw new Error(`No summary of ${id}.`);
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
  summary: {
    lines: {
      release: { count: 52, amount: 1272000, gross: 1311340, fee: 39340, net: 1272000 },
      refund: { count: 2, amount: -15769 },
      refund_reversal: { count: 0, amount: 0 },
      dispute_hold: { count: 1, amount: -4000 },
      dispute_release: { count: 0, amount: 0 },
      dispute_loss: { count: 0, amount: 0 },
      settlement_failure: { count: 1, amount: 2500 },
      adjustment: { count: 0, amount: 0 },
    },
    other: 0,
  },
} as const;

/** What the `amount` of a summary's totals means. */
const LINE_AMOUNT =
  'What these lines moved on the available balance, signed (minor units of the settlement’s currency, exact: written as the digits of the integer, which may pass 2^53 − 1).';

/** A total of lines of one type (schema SettlementLineTotal). */
const lineTotal = (description: string) =>
  ({
    ...ref('SettlementLineTotal'),
    description,
  }) as const;

/** The answers of settlements. */
export const SETTLEMENT_SCHEMAS = components({
  ...MONEY,
  Settlement: {
    ...object(
      ['id', 'object', 'mode', 'status', 'amount', 'period_start', 'period_end', 'created', 'summary'],
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
            'What is paid out, in the settlement currency: the sum of the lines it covers (`summary`): every movement of the available balance no earlier settlement covered, payments released, refunds and dispute debits, failed payouts returned, except the money of payments that wait for a later settlement (released after a scheduled period’s end, or beyond what one manual request settles). Above zero and at most 2^53 − 1: what passes it is paid as several settlements, each covering lines that sum to its own amount.',
        },
        payments: { type: 'integer', description: 'How many payments it covers; each payment is settled once. 0 for a settlement of adjustments alone.' },
        period_start: { ...dateTime, description: 'Start of the period: the earliest release it covers (manual), or the period’s start (scheduled).' },
        period_end: { ...dateTime, description: 'End of the period, exclusive: the moment of the request (manual), or the period’s end (scheduled).' },
        created: { ...dateTime, description: 'When it was made.' },
        summary: {
          ...ref('SettlementSummary'),
          description: 'What it pays, by the type of the lines it covers: the totals and `other` add up to `amount.amount`.',
        },
      },
      'A payout of released payments’ nets to the merchant’s bank account.',
    ),
    examples: [SETTLEMENT_EXAMPLE],
  },
  SettlementLineTotal: object(
    ['count', 'amount'],
    {
      count: { type: 'integer', description: 'How many lines (balance transactions) of this type it covers.' },
      amount: { ...int64, description: LINE_AMOUNT },
    },
    'The lines of one type a settlement covers, summed.',
  ),
  SettlementPaymentLines: object(
    ['count', 'amount', 'gross', 'fee', 'net'],
    {
      count: { type: 'integer', description: 'How many payments it pays: the `release` lines it covers (a payment’s net reaching the available balance).' },
      amount: {
        ...int64,
        description: `${LINE_AMOUNT} It is \`net\` less what refunds or disputes took from these payments before their release (those lines moved pending, not available).`,
      },
      gross: { ...int64, description: 'What their payers paid, in the settlement currency: `net + fee`. Exact, may pass 2^53 − 1.' },
      fee: { ...int64, description: 'Our fees on them. Exact.' },
      net: { ...int64, description: 'Their nets: what the merchant got of them when they were paid. Exact.' },
    },
    'The payments a settlement pays, with their gross, fee and net.',
  ),
  SettlementSummary: object(
    ['lines', 'other'],
    {
      lines: {
        ...object([...SUMMARY_LINE_TYPES], {
          release: {
            ...ref('SettlementPaymentLines'),
            description: 'Payments whose net reached the available balance (balance transactions of type `release`).',
          },
          refund: lineTotal('Refunds debited from the available balance (negative).'),
          refund_reversal: lineTotal('Refunds that failed after being debited: their debit given back (positive).'),
          dispute_hold: lineTotal('Disputes that froze money of released payments (negative).'),
          dispute_release: lineTotal('Disputes won: the hold given back to the available balance (positive).'),
          dispute_loss: lineTotal('Disputes lost: the dispute fee and what the payment still had in available (negative).'),
          settlement_failure: lineTotal(
            'Earlier settlements whose payout failed: their amount returned to the available balance and paid again here (positive).',
          ),
          adjustment: lineTotal('Any other movement of the available balance.'),
        }),
        description:
          'Totals by line type. Every line is a balance transaction whose `settlement` is this settlement (`GET /v1/balance_transactions?settlement=…`); its own payout line aside.',
      },
      other: {
        ...int64,
        description:
          'What `amount` pays beyond its lines: 0 for every settlement made since settlements record the lines they cover, except the first one of an account settled before, which also paid what earlier settlements had left in the available balance; and those earlier ones, whose lines were attributed afterwards by their order.',
      },
    },
    'What a settlement pays, by the type of the lines it covers: `lines.*.amount` and `other` sum to the settlement’s `amount.amount`. A line that overdrew the available balance (a refund of a payment paid out earlier, a lost dispute’s fee) is covered, and netted, by the next settlement that pays something.',
  ),
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
