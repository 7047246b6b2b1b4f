import { ListBalanceTransactions } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeIn } from '../../plugins/dashboard/actor';
import { pageOf, withMode } from '../schemas';
import { balanceTransactionFilter, balanceTransactionListFields, FILTERS_DESCRIPTION } from './balance-transaction-query';
import { BALANCE_TRANSACTION_SCHEMAS, presentBalanceTransaction } from './presenter';

/** *mode*: the account's balance transactions, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/balance_transactions',
  access: 'dashboard',
  action: 'balance.read',
  validate: { query: withMode(balanceTransactionListFields) },
  openapi: {
    operationId: 'listBalanceTransactions',
    summary: 'List balance transactions, newest first',
    description: FILTERS_DESCRIPTION + '`limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_TRANSACTION_SCHEMAS.BalanceTransactionList, description: 'A page of balance transactions.' },
  },
  uses: { listBalanceTransactions: ListBalanceTransactions },
  handler:
    ({ listBalanceTransactions }) =>
    async (request) => {
      const { query } = request;
      const page = await listBalanceTransactions.execute({ scope: scopeIn(request, query.mode), filter: balanceTransactionFilter(query), page: pageOf(query) });
      return presentList(page, presentBalanceTransaction);
    },
});
