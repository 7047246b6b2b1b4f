import type { Request, Server } from '@hapi/hapi';
import { API_CALLER, type IdempotencyScope } from '@payments/core';
import { checkIdempotencyKey } from '../../http/idempotency';
import { scopeOf } from './caller';

/**
 * Every POST under `/v1` needs an Idempotency-Key (checked after authentication, so a caller
 * without a valid key learns nothing else first).
 */
export function requireIdempotencyKey(server: Server): void {
  server.ext('onPostAuth', (request, h) => {
    if (request.method !== 'post' || !request.path.startsWith('/v1/') || !request.auth.credentials?.caller) return h.continue;
    checkIdempotencyKey(request, 'Every POST under /v1');
    return h.continue;
  });
}

/** Every API key of the merchant shares the mode's keys: a retry may come through another key. */
export function apiKeyOwner(request: Request): Omit<IdempotencyScope, 'key'> {
  return { ...scopeOf(request), caller: API_CALLER };
}
