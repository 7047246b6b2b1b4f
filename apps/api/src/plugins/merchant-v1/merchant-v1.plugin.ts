import type { Plugin } from '@hapi/hapi';
import type { ResolveApiVersion } from '@payments/core';
import { registerApiKeyAuth, type ApiKeyAuthOptions } from './api-key-auth.scheme';
import { registerApiVersion } from './api-version.ext';
import { attemptRoutes, type AttemptRoutesDeps } from './attempts.route';
import { balanceRoutes, type BalanceRoutesDeps } from './balance.route';
import { disputeRoutes, type DisputeRoutesDeps } from './disputes.route';
import { eventRoutes } from './events.route';
import { fxRoutes, type FxRoutesDeps } from './fx.route';
import { requireIdempotencyKey } from './idempotency';
import { paymentIntentRoutes, type PaymentIntentRoutesDeps } from './payment-intents.route';
import { testHelperRoutes, type TestHelperRoutesDeps } from './test-helpers.route';
import { settlementRoutes, type SettlementRoutesDeps } from './settlements.route';
import type { ListEvents, PlatformKeys } from '@payments/core';

export interface MerchantV1Options extends PaymentIntentRoutesDeps, AttemptRoutesDeps, TestHelperRoutesDeps, FxRoutesDeps, BalanceRoutesDeps, DisputeRoutesDeps, SettlementRoutesDeps {
  readonly auth: ApiKeyAuthOptions;
  readonly resolveApiVersion: ResolveApiVersion;
  readonly listEvents: ListEvents;
  readonly platformKeys: PlatformKeys;
}

/** The merchant API under `/v1`: bearer API keys, idempotent POSTs, account-pinned versions. */
export const merchantV1Plugin: Plugin<MerchantV1Options> = {
  name: 'payments-merchant-v1',
  dependencies: ['payments-errors'],
  register(server, options) {
    registerApiKeyAuth(server, options.auth);
    registerApiVersion(server, options.resolveApiVersion);
    requireIdempotencyKey(server);
    const routes = [
      ...paymentIntentRoutes(options),
      ...attemptRoutes(options),
      ...testHelperRoutes(options),
      ...eventRoutes(options),
      ...fxRoutes(options),
      ...balanceRoutes(options),
      ...disputeRoutes(options),
      ...settlementRoutes(options),
    ];
    server.route(
      routes.map((route) => ({
        ...route,
        options: {
          ...route.options,
          auth: 'api-key',
          // Only JSON bodies are read; anything else is 415 before any work is done.
          payload: route.method === 'POST' ? { allow: 'application/json' } : undefined,
        },
      })),
    );
  },
};
