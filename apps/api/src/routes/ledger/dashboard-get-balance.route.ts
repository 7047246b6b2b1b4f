import { GetBalance } from '@payments/core';
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
    summary: 'Retrieve the balance: available, pending and dispute_hold, per currency',
    description: 'Amounts are exact JSON integers, as GET /v1/balance writes them (a sum may pass 2^53 − 1).',
    tag: 'Balance',
    success: { status: 200, schema: BALANCE_SCHEMAS.Balance, description: 'The balance.' },
  },
  uses: { getBalance: GetBalance },
  handler:
    ({ getBalance }) =>
    async (request, h) =>
      balanceResponse(h, await getBalance.execute(scopeIn(request, request.query.mode))),
});
