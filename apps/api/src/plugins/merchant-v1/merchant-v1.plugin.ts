import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { parsePermission, type ResolveApiVersion } from '@payments/core';
import { registerRoutes, type IdempotentWork, type Resolve, type Route } from '../../http/define-route';
import { registerApiKeyAuth, type ApiKeyAuthOptions } from './api-key-auth.scheme';
import { apiVersionChooser, registerApiVersionHeader } from './api-version.ext';
import { checkIdempotencyKey, idempotent, type IdempotentDeps } from '../../http/idempotency';
import { apiKeyOwner } from './idempotency';

export interface MerchantV1Options extends IdempotentDeps {
  readonly auth: ApiKeyAuthOptions;
  readonly resolveApiVersion: ResolveApiVersion;
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers those called with an API key. */
  readonly routes: readonly Route[];
}

/** The merchant API under `/v1`: bearer API keys, idempotent POSTs, account-pinned versions. */
export const merchantV1Plugin: Plugin<MerchantV1Options> = {
  name: 'payments-merchant-v1',
  dependencies: ['payments-errors'],
  register(server, options) {
    registerApiKeyAuth(server, options.auth);
    registerApiVersionHeader(server);
    const chooseApiVersion = apiVersionChooser(options.resolveApiVersion);
    // One step after authentication, so a caller without a valid key learns nothing else first:
    // the version answering the request, then every POST's Idempotency-Key.
    const afterAuthentication = async (request: Request, h: ResponseToolkit) => {
      await chooseApiVersion(request);
      if (request.method === 'post') checkIdempotencyKey(request, 'Every POST under /v1');
      return h.continue;
    };
    registerRoutes(server, options.routes, options.resolve, 'api-key', (route, handler) => {
      // Every POST needs an Idempotency-Key (afterAuthentication), so every POST must use it.
      if (route.method === 'POST' && !route.idempotent) throw new Error(`${route.method} ${route.path} must be idempotent`);
      // A read needs a resource's read permission, a write its write permission (docs/api-keys.md).
      if (parsePermission(route.permission).access !== (route.method === 'GET' ? 'read' : 'write')) {
        throw new Error(`${route.method} ${route.path} must need ${route.method === 'GET' ? 'read' : 'write'} permission, not ${route.permission}`);
      }
      return {
        auth: 'api-key',
        // Only JSON bodies are read; anything else is 415 before any work is done.
        payload: route.method === 'POST' ? { allow: 'application/json' } : undefined,
        plugins: { openapi: route.openapi, permission: route.permission },
        ext: { onPostAuth: { method: afterAuthentication } },
        // defineRoute has an idempotent route's handler answer a RouteAnswer.
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- defineRoute's types make an idempotent route's handler an IdempotentWork
        handler: route.idempotent ? idempotent(options, handler as IdempotentWork, route.idempotent, apiKeyOwner) : handler,
      };
    });
  },
};
