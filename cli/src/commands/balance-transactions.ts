import { BALANCE_TRANSACTION_TYPES, type BalanceTransaction, type BalanceTransactionExportParams } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { ID, oneOf, optionalString, positional } from '../values.js';
import { given, LIST_OPTIONS, listParams, printList, printObject } from './common.js';

const HEADERS = ['ID', 'TYPE', 'AMOUNT', 'FEE', 'NET', 'CURRENCY', 'SOURCE', 'AVAILABLE_ON', 'SETTLEMENT', 'CREATED'];

function row(line: BalanceTransaction): Array<string | number | undefined> {
  return [line.id, line.type, line.amount, line.fee, line.net, line.currency, line.source, line.available_on, line.settlement, line.created];
}

const date = (what: string) => ({ type: 'string' as const, description: what, valueName: 'date' });

/** The filters of balance transactions, the same for `list` and `export`. */
export const BALANCE_TRANSACTION_FILTERS = {
  type: { type: 'string', description: `Only this type: ${BALANCE_TRANSACTION_TYPES.join(', ')}.`, valueName: 'type' },
  'payment-intent': { type: 'string', description: 'Only the lines of this payment intent.', valueName: 'pi' },
  settlement: { type: 'string', description: 'Only the lines this settlement covers (its own payout line included).', valueName: 'st' },
  currency: { type: 'string', description: 'Only lines in this currency.', valueName: 'code' },
  'created-gte': date('Created at or after: a date (2026-05-01) or a date-time.'),
  'created-lte': date('Created at or before: a date (its whole day) or a date-time.'),
  'available-on-gte': date('Available at or after: a date or a date-time.'),
  'available-on-lte': date('Available at or before: a date (its whole day) or a date-time.'),
} as const;

/** The query parameters BALANCE_TRANSACTION_FILTERS give. */
export function balanceTransactionFilters(context: Context): BalanceTransactionExportParams {
  const v = context.values;
  return {
    ...given('type', oneOf(v, 'type', BALANCE_TRANSACTION_TYPES)),
    ...given('payment_intent', optionalString(v, 'payment-intent')),
    ...given('settlement', optionalString(v, 'settlement')),
    ...given('currency', optionalString(v, 'currency')?.toUpperCase()),
    ...given('created[gte]', optionalString(v, 'created-gte')),
    ...given('created[lte]', optionalString(v, 'created-lte')),
    ...given('available_on[gte]', optionalString(v, 'available-on-gte')),
    ...given('available_on[lte]', optionalString(v, 'available-on-lte')),
  };
}

export const balanceTransactionCommands: Command[] = [
  {
    name: 'balance-transactions list',
    summary: 'List balance transactions (every movement of your money), newest first.',
    options: {
      ...LIST_OPTIONS,
      ...BALANCE_TRANSACTION_FILTERS,
    },
    examples: [
      'payments balance-transactions list --settlement st_ABC234 --all',
      'payments balance-transactions list --type refund --created-gte 2026-05-01 --json',
    ],
    notes: 'AMOUNT − FEE = NET on every line; the NET of all lines of a currency is its available + pending + dispute_hold.',
    async run(context) {
      const list = context.client().balanceTransactions.list({ ...listParams(context), ...balanceTransactionFilters(context) });
      await printList(context, list, HEADERS, row);
    },
  },
  {
    name: 'balance-transactions get',
    summary: 'Show one balance transaction.',
    args: '<balance_transaction>',
    examples: ['payments balance-transactions get txn_4187'],
    async run(context) {
      printObject(context, await context.client().balanceTransactions.retrieve(positional(context, 0, 'balance_transaction', ID.balanceTransaction)));
    },
  },
];
