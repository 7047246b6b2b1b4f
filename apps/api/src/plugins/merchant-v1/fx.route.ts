import type { ServerRoute } from '@hapi/hapi';
import { MAX_AMOUNT, type FxQuote, type QuoteFx } from '@payments/core';
import Joi from 'joi';

export interface FxRoutesDeps {
  readonly quoteFx: QuoteFx;
}

const currency = Joi.string().pattern(/^[A-Z]{3}$/, 'ISO 4217 code');

/**
 * Query strings are text: `amount` must be plain digits (no sign, exponent, decimals or
 * spaces), then a whole number of minor units from 0 to 2^53 − 1.
 */
const amount = Joi.string()
  .pattern(/^[0-9]{1,16}$/, 'whole number of minor units')
  .custom((value: string, helpers) => {
    const units = Number(value);
    return Number.isSafeInteger(units) && units <= MAX_AMOUNT ? units : helpers.error('number.max', { limit: MAX_AMOUNT });
  })
  .messages({ 'number.max': '{{#label}} must be at most {{#limit}}' });

export const fxQuoteQuery = Joi.object({
  from: currency.required(),
  to: currency.required(),
  payment_method: Joi.string().min(1).max(64),
  amount,
});

/** FxQuote as the API shows it: the rate a decimal string, estimated only with an amount. */
export function presentFxQuote(quote: FxQuote): Record<string, unknown> {
  return {
    indicative: true,
    from: quote.from,
    to: quote.to,
    rate: quote.rate,
    ...(quote.estimated === undefined ? {} : { estimated: { amount: quote.estimated.amount, currency: quote.estimated.currency } }),
  };
}

export function fxRoutes(deps: FxRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/fx/quotes',
      options: {
        validate: { query: fxQuoteQuery },
        handler: async (request) => {
          const query = request.query as { from: string; to: string; payment_method?: string; amount?: number };
          const quote = await deps.quoteFx.execute({ from: query.from, to: query.to, paymentMethod: query.payment_method, amount: query.amount });
          return presentFxQuote(quote);
        },
      },
    },
  ];
}
