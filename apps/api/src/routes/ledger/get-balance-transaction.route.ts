import { GetBalanceTransaction } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { balanceTransactionId } from './balance-transaction-query';
import { BALANCE_TRANSACTION_SCHEMAS, presentBalanceTransaction } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/balance_transactions/{id}',
  access: 'api-key',
  permission: 'balance:read',
  validate: { params: objectSchema({ id: required(balanceTransactionId) }) },
  openapi: {
    operationId: 'retrieveBalanceTransaction',
    summary: 'Retrieve a balance transaction',
    description:
      'One line as it stands now (`settlement` appears once a settlement covers it; a payment’s `available_on` once its release is scheduled). ' +
      'Another merchant’s line, or one of the other mode, is 404 `resource_not_found` like an unknown one.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_TRANSACTION_SCHEMAS.BalanceTransaction, description: 'The balance transaction.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getBalanceTransaction: GetBalanceTransaction },
  handler:
    ({ getBalanceTransaction }) =>
    async (request) =>
      presentBalanceTransaction(await getBalanceTransaction.execute({ scope: scopeOf(request), id: request.params.id })),
});
