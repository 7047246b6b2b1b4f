import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { balanceTransactionFilter, balanceTransactionFilterFields, FILTERS_DESCRIPTION } from '../ledger/balance-transaction-query';
import { withMode } from '../schemas';
import { BALANCE_TRANSACTION_COLUMNS } from './columns';
import { EXPORT_USES, exportBalanceTransactions } from './exports';

/** *mode*: the account's balance transactions the filters keep, every page, as a CSV download, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/exports/balance_transactions.csv',
  access: 'dashboard',
  action: 'balance.read',
  validate: { query: withMode(balanceTransactionFilterFields) },
  openapi: {
    operationId: 'exportBalanceTransactions',
    summary: 'Download balance transactions as a CSV file',
    description:
      FILTERS_DESCRIPTION +
      'Every line they keep, newest first, as one file. The file starts with a UTF-8 byte order mark. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: {
      status: 200,
      csv: { columns: BALANCE_TRANSACTION_COLUMNS, bom: true },
      description: 'The lines as CSV, saved as `balance_transactions-<mode>-<day>.csv` (`…-<day>-<settlement>.csv` with `settlement`).',
    },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => {
    const { query } = request;
    return exportBalanceTransactions(deps, h, 'dashboard', scopeIn(request, query.mode), balanceTransactionFilter(query));
  },
});
