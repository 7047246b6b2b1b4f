import type { Lifecycle, Plugin, Request, ResponseObject, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import {
  CHECKOUT_SIMULATE_OUTCOMES,
  CoreError,
  isCoreError,
  type Clock,
  type Digest,
  type GetCheckoutPage,
  type GetCheckoutState,
  type PayCheckoutSession,
  type RateLimiter,
  type SimulateCheckoutPayment,
} from '@payments/core';
import Joi from 'joi';
import { errorBody } from '../../http/error-envelope';
import { header } from '../../http/headers';
import { pickLanguage } from './language';
import { checkoutPageView } from './page-view';
import { presentCheckoutState } from './presenter';
import { CheckoutViews } from './views';

export interface CheckoutOptions {
  readonly getCheckoutPage: GetCheckoutPage;
  readonly getCheckoutState: GetCheckoutState;
  readonly payCheckoutSession: PayCheckoutSession;
  readonly simulateCheckoutPayment: SimulateCheckoutPayment;
  readonly rateLimiter: RateLimiter;
  /** Requests per second per token; 0 turns the limit off. */
  readonly perTokenPerSecond: number;
  readonly digest: Digest;
  readonly clock: Clock;
}

/**
 * No third-party anything: scripts, styles and fetches go to this origin only, no inline script or
 * style (so no inline handlers), no framing, forms post nowhere else.
 */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

// The token is whatever the payer's link carries; anything longer than any token we mint is unknown.
const tokenParams = Joi.object({ token: Joi.string().max(128).required() });
const payBody = Joi.object({ payment_method: Joi.string().max(64).required() });
const simulateBody = Joi.object({
  outcome: Joi.string()
    .valid(...CHECKOUT_SIMULATE_OUTCOMES)
    .required(),
  failure_code: Joi.string().max(64),
});

/** Every checkout answer, the error envelopes included. */
const CHECKOUT_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': CHECKOUT_CSP,
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function isBoom(response: Request['response']): response is Boom {
  return (response as Boom).isBoom === true;
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
    const views = new CheckoutViews();

    const limitPerToken: Lifecycle.Method = async (request, h) => {
      if (options.perTokenPerSecond <= 0) return h.continue;
      const token = String(request.params.token ?? '');
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

    // Every checkout answer, error or not, is uncached, leaks no referrer and runs under the CSP.
    const securityHeaders = (request: Request, h: ResponseToolkit): symbol => {
      const response = request.response;
      if (!response) return h.continue;
      for (const [name, value] of Object.entries(CHECKOUT_HEADERS)) {
        if (isBoom(response)) response.output.headers[name] = value;
        else (response as ResponseObject).header(name, value);
      }
      return h.continue;
    };

    const tokenRoute = (route: ServerRoute): ServerRoute => ({
      ...route,
      options: {
        ...(route.options as object),
        auth: false,
        // Cookies are never read here: a dashboard cookie sent along changes nothing.
        state: { parse: false, failAction: 'ignore' },
        ext: { onPreAuth: { method: limitPerToken }, onPreResponse: { method: securityHeaders } },
      },
    });

    const renderUnavailable = (request: Request, h: ResponseToolkit, error: unknown): ResponseObject => {
      if (!isCoreError(error) || (error.category !== 'gone' && error.category !== 'not_found')) throw error;
      const lang = pickLanguage(header(request, 'accept-language'));
      const gone = error.category === 'gone';
      return h
        .response(views.unavailable(lang, gone ? 'expired' : 'not_found'))
        .code(gone ? 410 : 404)
        .type('text/html; charset=utf-8')
        .header('Content-Language', lang);
    };

    server.route([
      tokenRoute({
        method: 'GET',
        path: '/c/{token}',
        options: {
          validate: { params: tokenParams },
          handler: async (request, h) => {
            const lang = pickLanguage(header(request, 'accept-language'));
            try {
              const page = await options.getCheckoutPage.execute({ token: String(request.params.token) });
              const html = views.page(await checkoutPageView(page, lang, options.clock.now()));
              return h.response(html).type('text/html; charset=utf-8').header('Content-Language', lang).header('Vary', 'Accept-Language');
            } catch (error) {
              return renderUnavailable(request, h, error);
            }
          },
        },
      }),
      tokenRoute({
        method: 'GET',
        path: '/checkout/sessions/{token}/status',
        options: {
          validate: { params: tokenParams },
          handler: async (request) => presentCheckoutState(await options.getCheckoutState.execute({ token: String(request.params.token) })),
        },
      }),
      tokenRoute({
        method: 'POST',
        path: '/checkout/sessions/{token}/pay',
        options: {
          payload: { allow: 'application/json' },
          validate: { params: tokenParams, payload: payBody },
          handler: async (request, h) => {
            const body = request.payload as { payment_method: string };
            const { state, refused } = await options.payCheckoutSession.execute({ token: String(request.params.token), paymentMethod: body.payment_method });
            if (refused) {
              // As on /v1: a channel that refuses the order at once is a failed attempt and a 402.
              const refusal = new CoreError('payment_failed', 'payment_failed', 'The payment channel refused the payment; choose a method and try again.');
              return h.response(errorBody(refusal, request.app.requestId)).code(402);
            }
            return presentCheckoutState(state);
          },
        },
      }),
      tokenRoute({
        method: 'POST',
        path: '/checkout/sessions/{token}/simulate',
        options: {
          payload: { allow: 'application/json' },
          validate: { params: tokenParams, payload: simulateBody },
          handler: async (request) => {
            const body = request.payload as { outcome: (typeof CHECKOUT_SIMULATE_OUTCOMES)[number]; failure_code?: string };
            const state = await options.simulateCheckoutPayment.execute({
              token: String(request.params.token),
              outcome: body.outcome,
              failureCode: body.failure_code,
            });
            return presentCheckoutState(state);
          },
        },
      }),
    ]);

    // The page's own script and stylesheet; the same headers, no token involved.
    server.route({
      method: 'GET',
      path: '/checkout/assets/{file}',
      options: {
        auth: false,
        ext: { onPreResponse: { method: securityHeaders } },
        handler: (request, h) => {
          const file = String(request.params.file);
          const asset = Object.hasOwn(views.assets, file) ? views.assets[file] : undefined;
          if (!asset) throw new CoreError('resource_not_found', 'not_found', 'No such file.');
          return h.response(asset.body).type(asset.type);
        },
      },
    });

    // The simulator's stand-in wallet (test mode's redirect credential): says where to go on.
    server.route({
      method: 'GET',
      path: '/checkout/simulator-wallet/{order}',
      options: {
        auth: false,
        ext: { onPreResponse: { method: securityHeaders } },
        handler: (request, h) => {
          const lang = pickLanguage(header(request, 'accept-language'));
          return h.response(views.wallet(lang)).type('text/html; charset=utf-8').header('Content-Language', lang);
        },
      },
    });
  },
};
