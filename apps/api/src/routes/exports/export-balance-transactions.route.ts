import { defineRoute } from '../../http/define-route';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { balanceTransactionFilter, balanceTransactionFilterFields, FILTERS_DESCRIPTION } from '../ledger/balance-transaction-query';
import { BALANCE_TRANSACTION_COLUMNS } from './columns';
import { EXPORT_USES, exportBalanceTransactions } from './exports';

export default defineRoute({
  method: 'GET',
  path: '/v1/exports/balance_transactions.csv',
  access: 'api-key',
  permission: 'balance:read',
  validate: { query: objectSchema(balanceTransactionFilterFields) },
  openapi: {
    operationId: 'exportBalanceTransactions',
    summary: 'Export balance transactions as a CSV file',
    description:
      'Every line of the key’s merchant and mode that the filters of `GET /v1/balance_transactions` keep, newest first, as one CSV file streamed as it is read ' +
      '(no `limit` or `starting_after`). With `settlement=st_…`, the `moves_available` of the lines other than the settlement’s own add up to its amount. ' +
      FILTERS_DESCRIPTION +
      'Any other query parameter, or a date that is no day of the calendar, is 400 `invalid_parameter` naming it, as JSON, before any byte of the file. Columns and rules: docs/exports.md.',
    tag: 'Exports',
    success: {
      status: 200,
      csv: { columns: BALANCE_TRANSACTION_COLUMNS, bom: false },
      description: 'The lines as CSV, saved as `balance_transactions-<mode>-<day>.csv` (`…-<day>-<settlement>.csv` with `settlement`).',
    },
  },
  uses: EXPORT_USES,
  handler: (deps) => (request, h) => exportBalanceTransactions(deps, h, 'api', scopeOf(request), balanceTransactionFilter(request.query)),
});
