import { decimalAmount, type BalanceTransaction, type MoneyStatus, type PaymentIntent, type Settlement, type SettlementSummary } from '@payments/core';
import type { CsvColumn, CsvValue } from '../../http/csv';
import { timestamp } from '../../http/presenting';

/*
 * The columns of the three CSV exports (docs/exports.md): names are stable snake_case, amounts are
 * exact decimal strings in their currency's digits (`-1.50`, JPY `500`) with the integer of minor
 * units beside them (`…_minor`), times are ISO 8601 in UTC with whole seconds, as the API shows
 * them. A value the API leaves out is an empty field.
 */

const when = (date: Date | undefined): string | undefined => date && timestamp(date);
const decimal = (minor: number | bigint | undefined, currency: string | undefined): CsvValue =>
  minor === undefined || currency === undefined ? undefined : decimalAmount(minor, currency);

/** An amount in two columns: `name` (decimal) and `name_minor` (integer). */
function amountColumns<R>(
  name: string,
  meaning: string,
  example: { readonly decimal: string; readonly minor: string },
  read: (record: R) => { readonly amount: number | bigint; readonly currency: string } | undefined,
): CsvColumn<R>[] {
  return [
    {
      name,
      description: `${meaning} (exact decimal).`,
      example: example.decimal,
      numeric: true,
      value: (record) => decimal(read(record)?.amount, read(record)?.currency),
    },
    {
      name: `${name}_minor`,
      description: `The same as \`${name}\`, in integer minor units (satang for THB).`,
      example: example.minor,
      numeric: true,
      value: (record) => read(record)?.amount,
    },
  ];
}

/** An intent with what the export adds to it: its money statuses. */
export interface IntentRecord {
  readonly intent: PaymentIntent;
  readonly moneyStatuses: readonly MoneyStatus[];
}

export const PAYMENT_INTENT_COLUMNS: readonly CsvColumn<IntentRecord>[] = [
  { name: 'id', description: 'The payment intent, `pi_…`.', example: 'pi_wRuAd6OgjF8fafigzwZwk6WP', value: ({ intent }) => intent.id },
  { name: 'created', description: 'When it was created (ISO 8601, UTC).', example: '2026-09-01T10:00:00Z', value: ({ intent }) => when(intent.created) },
  { name: 'mode', description: '`test` or `live`.', example: 'test', value: ({ intent }) => intent.mode },
  {
    name: 'status',
    description: 'Where the payment stands: created, requires_payment, processing, succeeded, channel_settled, failed, expired or canceled.',
    example: 'channel_settled',
    value: ({ intent }) => intent.status,
  },
  {
    name: 'money_statuses',
    description:
      'Where the money went after the payment, space-separated: refunded or partially_refunded, then disputed, dispute_won or dispute_lost. Empty when none applies.',
    example: 'partially_refunded',
    value: ({ moneyStatuses }) => moneyStatuses.join(' '),
  },
  {
    name: 'merchant_order_id',
    description: 'Your order reference (text; one that begins with =, +, -, @, a tab or a CR is written after a single quote).',
    example: 'order-1001',
    value: ({ intent }) => intent.merchantOrderId,
  },
  { name: 'currency', description: 'ISO 4217 code of `amount` and `amount_refunded`.', example: 'THB', value: ({ intent }) => intent.currency },
  ...amountColumns<IntentRecord>('amount', 'What the payer is asked for, in `currency`', { decimal: '250.00', minor: '25000' }, ({ intent }) => intent),
  ...amountColumns<IntentRecord>(
    'amount_refunded',
    'What its refunds that did not fail add up to (pending ones included), in `currency`',
    { decimal: '50.00', minor: '5000' },
    ({ intent }) => ({ amount: intent.amountRefunded ?? 0, currency: intent.currency }),
  ),
  {
    name: 'settlement_currency',
    description: 'ISO 4217 code of `fee` and `net`: the currency the payment is booked and settled in. Empty until it is priced.',
    example: 'THB',
    value: ({ intent }) => intent.net?.currency ?? intent.fee?.currency,
  },
  ...amountColumns<IntentRecord>(
    'fee',
    'The platform’s fee, in `settlement_currency`; empty until priced',
    { decimal: '4.12', minor: '412' },
    ({ intent }) => intent.fee,
  ),
  ...amountColumns<IntentRecord>(
    'net',
    'What the merchant receives (amount less fee), in `settlement_currency`; empty until priced',
    { decimal: '245.88', minor: '24588' },
    ({ intent }) => intent.net,
  ),
  {
    name: 'fx_rate',
    description:
      'For an intent in another currency than the settlement currency: the locked rate (units of `settlement_currency` per unit of `currency`), a decimal.',
    example: '',
    numeric: true,
    value: ({ intent }) => intent.fx?.rate,
  },
  {
    name: 'payment_method',
    description: 'The method of the latest attempt, or the one asked for (`promptpay` …).',
    example: 'promptpay',
    value: ({ intent }) => intent.paymentMethod,
  },
  {
    name: 'customer',
    description: 'Your reference for the payer (text, guarded like `merchant_order_id`).',
    example: 'cus_4821',
    value: ({ intent }) => intent.customer,
  },
  {
    name: 'description',
    description: 'Your text shown to the payer (text, guarded like `merchant_order_id`).',
    example: 'Two tickets, Bangkok to Chiang Mai',
    value: ({ intent }) => intent.description,
  },
  {
    name: 'available_at',
    description: 'When its net becomes (or became) available to settle; set once the channel settled the payment.',
    example: '2026-09-03T10:02:00Z',
    value: ({ intent }) => when(intent.availableAt),
  },
  {
    name: 'settlement',
    description: 'The settlement that covers its payment (pays its net out), `st_…`; empty until one does, and again once that payout failed.',
    example: '',
    value: ({ intent }) => intent.settlementId,
  },
  { name: 'expires_at', description: 'After this no attempt is accepted.', example: '2026-09-01T11:00:00Z', value: ({ intent }) => when(intent.expiresAt) },
  {
    name: 'metadata',
    description: 'Your key-value pairs as one JSON object (`{"cart":"c-7731"}`); empty when there are none.',
    example: '{"cart":"c-7731"}',
    value: ({ intent }) => (Object.keys(intent.metadata).length === 0 ? undefined : JSON.stringify(intent.metadata)),
  },
];

/** A settlement with its summary. */
export interface SettlementRecord {
  readonly settlement: Settlement;
  readonly summary: SettlementSummary;
}

/** One line type's total of a settlement's summary, in the settlement's currency. */
function summaryColumn(type: Exclude<keyof SettlementSummary['lines'], 'release'>, meaning: string, example: string): CsvColumn<SettlementRecord> {
  return {
    name: `${type}_amount`,
    description: `${meaning} (decimal, signed).`,
    example,
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.lines[type].amount, settlement.amount.currency),
  };
}

export const SETTLEMENT_COLUMNS: readonly CsvColumn<SettlementRecord>[] = [
  {
    name: 'id',
    description: 'The settlement, `st_…`; also the payout’s reference at the bank.',
    example: 'st_7KI3F6H43Q6IW6HBIH5VUP6KQQ',
    value: ({ settlement }) => settlement.id,
  },
  { name: 'created', description: 'When it was made (ISO 8601, UTC).', example: '2026-09-07T16:20:00Z', value: ({ settlement }) => when(settlement.created) },
  { name: 'mode', description: '`test` or `live`.', example: 'test', value: ({ settlement }) => settlement.mode },
  { name: 'status', description: 'pending, processing, paid or failed.', example: 'paid', value: ({ settlement }) => settlement.status },
  {
    name: 'currency',
    description: 'ISO 4217 code of every amount of the row: the settlement currency.',
    example: 'THB',
    value: ({ settlement }) => settlement.amount.currency,
  },
  ...amountColumns<SettlementRecord>('amount', 'What is paid out', { decimal: '12547.31', minor: '1254731' }, ({ settlement }) => settlement.amount),
  { name: 'payments', description: 'How many payments it covers (an integer).', example: '52', numeric: true, value: ({ settlement }) => settlement.payments },
  {
    name: 'period_start',
    description: 'Start of its period (ISO 8601, UTC).',
    example: '2026-09-01T10:04:00Z',
    value: ({ settlement }) => when(settlement.periodStart),
  },
  {
    name: 'period_end',
    description: 'End of its period, exclusive (ISO 8601, UTC).',
    example: '2026-09-07T16:20:00Z',
    value: ({ settlement }) => when(settlement.periodEnd),
  },
  {
    name: 'release_amount',
    description: 'What the released payments it covers added to the available balance (decimal).',
    example: '12720.00',
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.lines.release.amount, settlement.amount.currency),
  },
  {
    name: 'release_gross',
    description: 'What the payers of those payments paid, in the settlement currency (decimal): `release_fee` + `release_net`.',
    example: '13113.40',
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.lines.release.gross, settlement.amount.currency),
  },
  {
    name: 'release_fee',
    description: 'The platform’s fees on those payments (decimal).',
    example: '393.40',
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.lines.release.fee, settlement.amount.currency),
  },
  {
    name: 'release_net',
    description: 'Their nets as booked (decimal); more than `release_amount` where a refund or hold took some before release.',
    example: '12720.00',
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.lines.release.net, settlement.amount.currency),
  },
  summaryColumn('refund', 'Refunds debited from the available balance', '-157.69'),
  summaryColumn('refund_reversal', 'Refunds that failed: their debit given back', '0.00'),
  summaryColumn('dispute_hold', 'Disputes that froze released money', '-40.00'),
  summaryColumn('dispute_release', 'Disputes won: the hold given back', '0.00'),
  summaryColumn('dispute_loss', 'Disputes lost: the fee, and what the payment still had available', '0.00'),
  summaryColumn('settlement_failure', 'Earlier settlements whose payout failed: their amount, paid again', '25.00'),
  summaryColumn('adjustment', 'Any other movement of the available balance', '0.00'),
  {
    name: 'other_amount',
    description:
      'What the amount pays beyond its lines (0 but for settlements made before the ledger recorded coverage). The `…_amount` columns from `release_amount` to here add up to `amount`.',
    example: '0.00',
    numeric: true,
    value: ({ settlement, summary }) => decimalAmount(summary.other, settlement.amount.currency),
  },
];

const move = (bucket: 'pending' | 'available' | 'dispute_hold', example: { readonly decimal: string; readonly minor: string }) =>
  amountColumns<BalanceTransaction>(
    `moves_${bucket}`,
    `The signed change of the ${bucket.replace('_', ' ')} balance (\`moves.${bucket}\`; the three \`moves_…\` sum to \`net\`)`,
    example,
    (line) => ({ amount: line.moves[bucket], currency: line.currency }),
  );

export const BALANCE_TRANSACTION_COLUMNS: readonly CsvColumn<BalanceTransaction>[] = [
  { name: 'id', description: 'The line, `txn_…`; ids grow with the journal’s order.', example: 'txn_4187', value: (line) => line.id },
  { name: 'created', description: 'When the money moved (ISO 8601, UTC).', example: '2026-09-03T10:02:00Z', value: (line) => when(line.created) },
  {
    name: 'type',
    description:
      'payment, release, refund, refund_reversal, dispute_hold, dispute_release, dispute_loss, settlement, settlement_failure or adjustment (docs/balance-transactions.md).',
    example: 'release',
    value: (line) => line.type,
  },
  {
    name: 'source',
    description: 'The object that caused it: `pi_…`, `re_…`, `dp_…` or `st_…`.',
    example: 'pi_wRuAd6OgjF8fafigzwZwk6WP',
    value: (line) => line.source,
  },
  {
    name: 'payment_intent',
    description: 'The payment whose money it moved; empty for settlements.',
    example: 'pi_wRuAd6OgjF8fafigzwZwk6WP',
    value: (line) => line.paymentIntentId,
  },
  {
    name: 'settlement',
    description: 'The settlement that pays its movement of available money (on a `settlement` line, the settlement itself); empty until one covers it.',
    example: 'st_7KI3F6H43Q6IW6HBIH5VUP6KQQ',
    value: (line) => line.settlementId,
  },
  {
    name: 'currency',
    description: 'ISO 4217 code of every amount of the row: the settlement currency the line moved.',
    example: 'THB',
    value: (line) => line.currency,
  },
  ...amountColumns<BalanceTransaction>(
    'amount',
    '`net + fee`: a payment’s gross, a refund’s whole amount (negative)',
    { decimal: '0.00', minor: '0' },
    (line) => line,
  ),
  ...amountColumns<BalanceTransaction>('fee', 'The platform’s fee in the line', { decimal: '0.00', minor: '0' }, (line) => ({
    amount: line.fee,
    currency: line.currency,
  })),
  ...amountColumns<BalanceTransaction>(
    'net',
    'What the merchant’s three balances gained together (negative: lost)',
    { decimal: '0.00', minor: '0' },
    (line) => ({ amount: line.net, currency: line.currency }),
  ),
  ...move('pending', { decimal: '-245.88', minor: '-24588' }),
  ...move('available', { decimal: '245.88', minor: '24588' }),
  ...move('dispute_hold', { decimal: '0.00', minor: '0' }),
  {
    name: 'available_on',
    description: 'When its money is (or was) available (ISO 8601, UTC); empty when not known.',
    example: '2026-09-03T10:02:00Z',
    value: (line) => when(line.availableOn),
  },
  {
    name: 'exchange_currency',
    description: 'For a payment or refund the payer paid in another currency: that currency.',
    example: '',
    value: (line) => line.exchange?.currency,
  },
  {
    name: 'exchange_amount',
    description: 'The amount in `exchange_currency` (decimal in its digits, signed like `amount`).',
    example: '',
    numeric: true,
    value: (line) => decimal(line.exchange?.amount, line.exchange?.currency),
  },
  {
    name: 'exchange_rate',
    description: 'The rate the payment’s price locked at: units of `currency` for one unit of `exchange_currency` (decimal).',
    example: '',
    numeric: true,
    value: (line) => line.exchange?.rate,
  },
];
