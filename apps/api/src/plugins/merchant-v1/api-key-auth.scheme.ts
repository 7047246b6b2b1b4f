import type { Server } from '@hapi/hapi';
import { header } from '../../http/headers';
import { CoreError, requirePermission, type AuthenticateApiKey, type Mode, type RateLimiter } from '@payments/core';

export interface ApiKeyAuthOptions {
  readonly authenticate: AuthenticateApiKey;
  readonly rateLimiter: RateLimiter;
  /** Requests per second per key for each mode; 0 turns the limit off. */
  readonly rateLimits: Readonly<Record<Mode, number>>;
}

function bearerSecret(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed header is a wrong credential, not a missing one: return it so it is refused as such.
  return match ? match[1] : header;
}

/**
 * `Authorization: Bearer sk_…` or `rk_…`. The key is checked first (401, then 403
 * `live_not_enabled` for a live key before review) and only then is a rate-limit token spent, so a
 * refused live key costs the merchant nothing. Then a restricted key's permissions: a route it
 * does not reach is 403 `insufficient_permissions` here, in authentication, before the body is
 * read, the API version pinned, the Idempotency-Key looked at or any work done.
 */
export function registerApiKeyAuth(server: Server, options: ApiKeyAuthOptions): void {
  server.auth.scheme('api-key', () => ({
    authenticate: async (request, h) => {
      const caller = await options.authenticate.execute(bearerSecret(header(request, 'authorization')));
      const perSecond = options.rateLimits[caller.mode];
      if (perSecond > 0) {
        const decision = await options.rateLimiter.consume(`api_key:${caller.apiKeyId}`, perSecond);
        if (!decision.allowed) {
          throw new CoreError('rate_limited', 'rate_limited', `Too many requests for this API key (limit ${perSecond} per second).`, {
            retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
          });
        }
      }
      if (caller.permissions !== undefined) {
        const needed = request.route.settings.plugins?.permission;
        // A route that names no permission is open to no restricted key (every /v1 route names one).
        if (needed === undefined)
          throw new CoreError('insufficient_permissions', 'forbidden', 'This key is restricted and this route is not among its permissions.');
        requirePermission(caller.permissions, needed);
      }
      return h.authenticated({ credentials: { caller } });
    },
  }));
  server.auth.strategy('api-key', 'api-key');
}
