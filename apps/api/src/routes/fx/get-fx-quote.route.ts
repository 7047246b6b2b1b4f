import { MAX_AMOUNT, QuoteFx, type FxQuote } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, required } from '../../http/typed-schema';
import { currency } from '../schemas';
import { components, constant, currency as currencySchema, MONEY, object, ref } from '../../openapi/json-schema';

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
  .messages({ 'number.max': '{{#label}} must be at most {{#limit}}' })
  .description('Plain digits: minor units of `from`, 0 to 2^53 − 1. With it, the answer estimates what it comes to.');

const fxQuoteQuery = objectSchema({
  from: required(currency).description('ISO 4217 code of the currency converted from.'),
  to: required(currency).description('ISO 4217 code of the currency converted to.'),
  payment_method: Joi.string()
    .min(1)
    .max(64)
    .description('A catalog payment method collecting `from`: the estimate is then less its fee, as a settlement would be.'),
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

/** A quote of 1000.00 THB in USD by PromptPay, at a mid rate of 32.54 THB per USD. */
const FX_QUOTE_EXAMPLE = { indicative: true, from: 'THB', to: 'USD', rate: '0.0305777504609', estimated: { amount: 3008, currency: 'USD' } } as const;

/** The answer of a quote. */
export const FX_QUOTE_SCHEMAS = components({
  ...MONEY,
  FxQuote: {
    ...object(
      ['indicative', 'from', 'to', 'rate'],
      {
        indicative: { ...constant(true), description: 'Always true: a quote locks nothing.' },
        from: { ...currencySchema, description: 'The currency converted from.' },
        to: { ...currencySchema, description: 'The currency converted to.' },
        rate: {
          type: 'string',
          description: 'Units of `to` per unit of `from`: the mid rate with the platform’s spread, as a decimal string (never a float). "1" for one currency.',
        },
        estimated: {
          ...ref('Money'),
          description: 'With `amount`: it converted at `rate` and rounded half-even, less the fee of `payment_method` when one is given.',
        },
      },
      'What an amount would roughly come to in another currency now.',
    ),
    examples: [FX_QUOTE_EXAMPLE],
  },
});

export default defineRoute({
  method: 'GET',
  path: '/v1/fx/quotes',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { query: fxQuoteQuery },
  openapi: {
    operationId: 'retrieveFxQuote',
    summary: 'An indicative FX quote',
    description:
      'The rate an intent paid now would be priced at (mid rate plus the platform’s spread) and, with `amount`, what it would come to. Live and test keys answer the same. ' +
      'A currency that is not three capitals or not ISO 4217, a `payment_method` outside the catalog or not collecting `from`, or an `amount` converting past 2^53 − 1 ' +
      'is 400 `invalid_parameter` naming it; a pair without a rate is 400 `unsupported_currency_pair`; a rate feed that fails is 503 `api_error`.',
    tag: 'FX',
    success: { status: 200, schema: FX_QUOTE_SCHEMAS.FxQuote, description: 'The quote.' },
    errors: { 400: ['unsupported_currency_pair'] },
  },
  uses: { quoteFx: QuoteFx },
  handler:
    ({ quoteFx }) =>
    async (request) => {
      const { query } = request;
      return presentFxQuote(await quoteFx.execute({ from: query.from, to: query.to, paymentMethod: query.payment_method, amount: query.amount }));
    },
});
