import { GetBalance, GetNextSettlement } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery } from '../schemas';
import { BALANCE_SCHEMAS, balanceResponse } from './presenter';

/** *mode*: the balance as GET /v1/balance shows it, exact integers included, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/balance',
  access: 'dashboard',
  action: 'balance.read',
  validate: { query: modeQuery },
  openapi: {
    operationId: 'retrieveBalance',
    summary: 'Retrieve the balance: available, pending and dispute_hold, and the next settlement, per currency',
    description:
      'As GET /v1/balance: amounts are exact JSON integers (a sum may pass 2^53 − 1); `next_settlement` is what the next settlement will pay (for a manual account, what “Pay out now” pays) and when.',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_SCHEMAS.Balance, description: 'The balance.' },
  },
  uses: { getBalance: GetBalance, getNextSettlement: GetNextSettlement },
  handler:
    ({ getBalance, getNextSettlement }) =>
    async (request, h) => {
      const scope = scopeIn(request, request.query.mode);
      return balanceResponse(h, await getBalance.execute(scope), await getNextSettlement.execute(scope));
    },
});
