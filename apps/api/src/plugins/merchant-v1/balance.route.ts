import type { ServerRoute } from '@hapi/hapi';
import type { GetBalance, MerchantBalance } from '@payments/core';
import { exactJson } from '../../http/exact-json';
import { scopeOf } from './caller';

export interface BalanceRoutesDeps {
  readonly getBalance: GetBalance;
}

/**
 * Balance as the API shows it (schema Balance in docs/openapi.json): three buckets of Money, one
 * entry per currency. The amounts are BigInt (a sum of many payments may pass 2^53 − 1) and go
 * out as exact JSON integers (`exactJson`), never as rounded doubles.
 */
export function presentBalance(balance: MerchantBalance): Record<string, unknown> {
  return { object: 'balance', available: balance.available, pending: balance.pending, dispute_hold: balance.dispute_hold };
}

export function balanceRoutes(deps: BalanceRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/balance',
      options: {
        handler: async (request, h) => h.response(exactJson(presentBalance(await deps.getBalance.execute(scopeOf(request))))).type('application/json; charset=utf-8'),
      },
    },
  ];
}
