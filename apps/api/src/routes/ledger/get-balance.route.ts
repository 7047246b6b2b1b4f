import { GetBalance, GetNextSettlement } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { BALANCE_SCHEMAS, balanceResponse } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/balance',
  access: 'api-key',
  permission: 'balance:read',
  openapi: {
    operationId: 'retrieveBalance',
    summary: 'Retrieve the balance: available, pending and dispute_hold, and the next settlement, per currency',
    description:
      'The ledger’s balance of the key’s merchant and mode, in the settlement currency: a payment’s net enters `pending` when it is paid and priced, ' +
      'moves to `available` when its release timer fires, and leaves `available` when a settlement is made; `next_settlement` says what the next settlement will pay, and when. Amounts are exact integers of any size: ' +
      'a reader that turns JSON numbers into doubles should read these as big integers.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_SCHEMAS.Balance, description: 'The balance.' },
  },
  uses: { getBalance: GetBalance, getNextSettlement: GetNextSettlement },
  handler:
    ({ getBalance, getNextSettlement }) =>
    async (request, h) => {
      const scope = scopeOf(request);
      return balanceResponse(h, await getBalance.execute(scope), await getNextSettlement.execute(scope));
    },
});
