import type { Lifecycle, Plugin } from '@hapi/hapi';
import { CoreError, type Digest, type RateLimiter } from '@payments/core';
import { registerRoutes, type Resolve, type Route } from '../../http/define-route';
import { header } from '../../http/headers';
import { pageSecurityHeaders } from '../../http/page-security';
import { pickLanguage } from './language';
import { checkoutViews } from './views';

export interface CheckoutOptions {
  readonly rateLimiter: RateLimiter;
  /** Requests per second per token; 0 turns the limit off. */
  readonly perTokenPerSecond: number;
  readonly digest: Digest;
  readonly resolve: Resolve;
  /** Every route of the app; this plugin registers the checkout's (by token, and its open files). */
  readonly routes: readonly Route[];
}

/**
 * The hosted checkout: `/c/{token}` (the page), `/checkout/sessions/{token}/{pay,simulate,status}`
 * (what its script calls) and the page's own static files. The token in the path is the whole
 * authority: no key, no cookie is read. Each token has its own rate limit, keyed by its digest so
 * the token itself never reaches Redis; logs carry route templates only (errors plugin).
 */
export const checkoutPlugin: Plugin<CheckoutOptions> = {
  name: 'payments-checkout',
  dependencies: ['payments-errors'],
  register(server, options) {
    const views = checkoutViews();

    const limitPerToken: Lifecycle.Method = async (request, h) => {
      if (options.perTokenPerSecond <= 0) return h.continue;
      const param: unknown = request.params.token;
      const token = typeof param === 'string' ? param : '';
      const decision = await options.rateLimiter.consume(`checkout:${options.digest.sha256Hex(token)}`, options.perTokenPerSecond);
      if (!decision.allowed) {
        const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        if (request.route.path === '/c/{token}') {
          // A payer reloading the page gets a page that says to wait, not the API's JSON envelope.
          const lang = pickLanguage(header(request, 'accept-language'));
          return h
            .response(views.unavailable(lang, 'busy'))
            .code(429)
            .type('text/html; charset=utf-8')
            .header('Content-Language', lang)
            .header('Retry-After', String(retryAfterSeconds))
            .takeover();
        }
        throw new CoreError('rate_limited', 'rate_limited', 'Too many requests for this checkout session; wait a moment and retry.', { retryAfterSeconds });
      }
      return h.continue;
    };

    registerRoutes(server, options.routes, options.resolve, 'checkout-token', (route, handler) => ({
      auth: false,
      // Cookies are never read here: a dashboard cookie sent along changes nothing.
      state: { parse: false, failAction: 'ignore' },
      payload: route.method === 'POST' ? { allow: 'application/json' } : undefined,
      ext: { onPreAuth: { method: limitPerToken }, onPreResponse: { method: pageSecurityHeaders } },
      handler,
    }));
    // Every checkout answer, error or not, is uncached, leaks no referrer and runs under the CSP;
    // the page's own files and the simulator's wallet too, no token involved.
    registerRoutes(server, options.routes, options.resolve, 'checkout-open', (_route, handler) => ({
      auth: false,
      ext: { onPreResponse: { method: pageSecurityHeaders } },
      handler,
    }));
  },
};
