import { PAYMENT_INTENT_STATUSES, type CsvFile } from '@payments/sdk';
import type { Command, Context } from '../command.js';
import { oneOf, optionalString } from '../values.js';
import { BALANCE_TRANSACTION_FILTERS, balanceTransactionFilters } from './balance-transactions.js';
import { given } from './common.js';

const date = (what: string) => ({ type: 'string' as const, description: what, valueName: 'date' });

const NOTES =
  'The CSV goes to stdout as the service sent it (redirect it to a file); errors to stderr. Every row the filters keep, newest first: ' +
  'the service pages through the list itself. Amounts are exact decimals (-1.50) with the integer of minor units beside them (…_minor); ' +
  'a text cell starting with =, +, -, @, a tab or a CR has a single quote before it. Columns: docs/exports.md.';

/** The file, byte for byte as the service sent it, on stdout (nothing else there, so `> file.csv` is the file). */
function writeCsv(context: Context, file: CsvFile): void {
  context.out.raw(file.text);
}

export const exportCommands: Command[] = [
  {
    name: 'export payment_intents',
    summary: 'Export payment intents as CSV on stdout, every page.',
    options: {
      status: { type: 'string', description: `Only this status: ${PAYMENT_INTENT_STATUSES.join(', ')}.`, valueName: 'status' },
      'merchant-order-id': { type: 'string', description: 'Only the intent with this order id.', valueName: 'id' },
      'created-gte': date('Created at or after this ISO 8601 instant (2026-05-01 or 2026-05-01T10:00:00Z).'),
    },
    examples: ['payments export payment_intents --status succeeded > payments.csv', 'payments export payment_intents --created-gte 2026-11-01'],
    notes: NOTES,
    async run(context) {
      const v = context.values;
      const file = await context.client().exports.paymentIntents({
        ...given('status', oneOf(v, 'status', PAYMENT_INTENT_STATUSES)),
        ...given('merchant_order_id', optionalString(v, 'merchant-order-id')),
        ...given('created[gte]', optionalString(v, 'created-gte')),
      });
      writeCsv(context, file);
    },
  },
  {
    name: 'export settlements',
    summary: 'Export settlements as CSV on stdout, each with its totals by line type.',
    examples: ['payments export settlements > settlements.csv'],
    notes: NOTES,
    async run(context) {
      writeCsv(context, await context.client().exports.settlements());
    },
  },
  {
    name: 'export balance_transactions',
    summary: 'Export balance transactions as CSV on stdout (a settlement’s lines with --settlement).',
    options: {
      ...BALANCE_TRANSACTION_FILTERS,
    },
    examples: [
      'payments export balance_transactions --settlement st_ABC234 > st_ABC234.csv',
      'payments export balance_transactions --created-gte 2026-11-01 --created-lte 2026-11-30',
    ],
    notes: `${NOTES} With --settlement, the moves_available of the lines other than the settlement's own add up to its amount.`,
    async run(context) {
      const file = await context.client().exports.balanceTransactions(balanceTransactionFilters(context));
      writeCsv(context, file);
    },
  },
];
