import { MAX_AMOUNT, QuoteFx, type FxQuote } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { currency } from '../schemas';

/**
 * Query strings are text: `amount` must be plain digits (no sign, exponent, decimals or
 * spaces), then a whole number of minor units from 0 to 2^53 − 1 (the `custom` step makes it a number).
 */
const amount = Joi.string<number>()
  .pattern(/^[0-9]{1,16}$/, 'whole number of minor units')
  .custom((value: string, helpers) => {
    const units = Number(value);
    return Number.isSafeInteger(units) && units <= MAX_AMOUNT ? units : helpers.error('number.max', { limit: MAX_AMOUNT });
  })
  .messages({ 'number.max': '{{#label}} must be at most {{#limit}}' });

const fxQuoteQuery = objectSchema({
  from: required(currency),
  to: required(currency),
  payment_method: Joi.string().min(1).max(64),
  amount,
});

/** FxQuote as the API shows it: the rate a decimal string, estimated only with an amount. */
function presentFxQuote(quote: FxQuote): Record<string, unknown> {
  return {
    indicative: true,
    from: quote.from,
    to: quote.to,
    rate: quote.rate,
    ...(quote.estimated === undefined ? {} : { estimated: { amount: quote.estimated.amount, currency: quote.estimated.currency } }),
  };
}

export default defineRoute({
  method: 'GET',
  path: '/v1/fx/quotes',
  access: 'api-key',
  validate: { query: fxQuoteQuery },
  openapi: {
    operationId: 'retrieveFxQuote',
    summary: 'An indicative FX quote',
    tag: 'FX',
    success: { status: 200, schema: 'FxQuote', description: 'The quote.' },
  },
  uses: { quoteFx: QuoteFx },
  handler:
    ({ quoteFx }) =>
    async (request) => {
      const { query } = request;
      return presentFxQuote(await quoteFx.execute({ from: query.from, to: query.to, paymentMethod: query.payment_method, amount: query.amount }));
    },
});
