import { GetBalanceTransaction } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery } from '../schemas';
import { balanceTransactionId } from './balance-transaction-query';
import { BALANCE_TRANSACTION_SCHEMAS, presentBalanceTransaction } from './presenter';

/** *mode*: one balance transaction as the merchant API shows it, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/balance_transactions/{id}',
  access: 'dashboard',
  action: 'balance.read',
  validate: { params: objectSchema({ id: required(balanceTransactionId) }), query: modeQuery },
  openapi: {
    operationId: 'retrieveBalanceTransaction',
    summary: 'Retrieve a balance transaction',
    description: 'A line of another merchant or of the other mode is 404.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_TRANSACTION_SCHEMAS.BalanceTransaction, description: 'The balance transaction.' },
    errors: [404],
  },
  uses: { getBalanceTransaction: GetBalanceTransaction },
  handler:
    ({ getBalanceTransaction }) =>
    async (request) =>
      presentBalanceTransaction(await getBalanceTransaction.execute({ scope: scopeIn(request, request.query.mode), id: request.params.id })),
});
