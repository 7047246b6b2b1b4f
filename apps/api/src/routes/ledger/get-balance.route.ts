import { GetBalance, type MerchantBalance } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { exactJson } from '../../http/exact-json';
import { scopeOf } from '../../plugins/merchant-v1/caller';

/**
 * Balance as the API shows it (schema Balance in docs/openapi.json): three buckets of Money, one
 * entry per currency. The amounts are BigInt (a sum of many payments may pass 2^53 − 1) and go
 * out as exact JSON integers (`exactJson`), never as rounded doubles.
 */
function presentBalance(balance: MerchantBalance): Record<string, unknown> {
  return { object: 'balance', available: balance.available, pending: balance.pending, dispute_hold: balance.dispute_hold };
}

export default defineRoute({
  method: 'GET',
  path: '/v1/balance',
  access: 'api-key',
  openapi: {
    operationId: 'retrieveBalance',
    summary: 'Retrieve the balance: available, pending and dispute_hold, per currency',
    tag: 'Balance',
    success: { status: 200, schema: 'Balance', description: 'The balance.' },
  },
  uses: { getBalance: GetBalance },
  handler:
    ({ getBalance }) =>
    async (request, h) =>
      h.response(exactJson(presentBalance(await getBalance.execute(scopeOf(request))))).type('application/json; charset=utf-8'),
});
