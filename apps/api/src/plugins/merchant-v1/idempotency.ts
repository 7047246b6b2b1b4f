import type { Request } from '@hapi/hapi';
import { API_CALLER, type IdempotencyScope } from '@payments/core';
import { scopeOf } from './caller';

/** Every API key of the merchant shares the mode's keys: a retry may come through another key. */
export function apiKeyOwner(request: Request): Omit<IdempotencyScope, 'key'> {
  return { ...scopeOf(request), caller: API_CALLER };
}
