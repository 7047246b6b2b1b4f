import type { ServerRoute } from '@hapi/hapi';
import type { GetBalance, MerchantBalance } from '@payments/core';
import { scopeOf } from './payment-intents.route';

export interface BalanceRoutesDeps {
  readonly getBalance: GetBalance;
}

/** Balance as the API shows it (spec, Balance): three buckets of Money, one entry per currency. */
export function presentBalance(balance: MerchantBalance): Record<string, unknown> {
  return { object: 'balance', available: balance.available, pending: balance.pending, dispute_hold: balance.dispute_hold };
}

export function balanceRoutes(deps: BalanceRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/balance',
      options: {
        handler: async (request) => presentBalance(await deps.getBalance.execute(scopeOf(request))),
      },
    },
  ];
}
