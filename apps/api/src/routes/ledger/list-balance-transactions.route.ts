import { ListBalanceTransactions } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { pageOf } from '../schemas';
import { balanceTransactionFilter, balanceTransactionListFields, FILTERS_DESCRIPTION } from './balance-transaction-query';
import { BALANCE_TRANSACTION_SCHEMAS, presentBalanceTransaction } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/balance_transactions',
  access: 'api-key',
  permission: 'balance:read',
  validate: { query: objectSchema(balanceTransactionListFields) },
  openapi: {
    operationId: 'listBalanceTransactions',
    summary: 'List balance transactions, newest first',
    description:
      'Every movement of the key’s merchant’s money in this mode, one line per ledger transaction, newest first, a page at a time. The `net` of all lines of a currency ' +
      'sums to that currency’s available + pending + dispute_hold, and each bucket’s `moves` to that bucket. ' +
      FILTERS_DESCRIPTION +
      'Any other query parameter, or a `starting_after` that is not a line of this merchant and mode, is 400 `invalid_parameter` naming it.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_TRANSACTION_SCHEMAS.BalanceTransactionList, description: 'A page of balance transactions.' },
  },
  uses: { listBalanceTransactions: ListBalanceTransactions },
  handler:
    ({ listBalanceTransactions }) =>
    async (request) => {
      const { query } = request;
      const page = await listBalanceTransactions.execute({ scope: scopeOf(request), filter: balanceTransactionFilter(query), page: pageOf(query) });
      return presentList(page, presentBalanceTransaction);
    },
});
