import { CreatePaymentIntent, MAX_AMOUNT, MAX_CONVERTED_AT_CREATION, MAX_RETURN_URL_LENGTH, PAYMENT_INTENT_LIMITS } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { callerOf, scopeOf } from '../../plugins/merchant-v1/caller';
import { currency, jsonBody, metadata } from '../schemas';
import { PAYMENT_EXAMPLES, PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

/** Shapes only; the domain rules (currency, catalog, return_url) live in core. */
export const paymentIntentCreateBody = jsonBody({
  amount: required(Joi.number().integer().min(1).max(MAX_AMOUNT)).description(
    `Minor units of currency, 1 to ${MAX_AMOUNT} (2^53 − 1, the largest integer every JSON reader holds exactly). ` +
      `In another currency than the settlement currency, the amount converted at today's rate may be at most ${MAX_CONVERTED_AT_CREATION} ` +
      '(half of 2^53 − 1, so the rate may move before it locks); more is 400 invalid_parameter with param amount.',
  ),
  currency: required(currency).description('ISO 4217 code that some payment method collects: IDR, MYR, PHP, SGD, THB or USD.'),
  merchant_order_id: required(Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength)).description(
    `Your order reference, 1 to ${PAYMENT_INTENT_LIMITS.merchantOrderIdLength} characters, unique per merchant and mode: a used one is 409 merchant_order_id_taken.`,
  ),
  payment_method: Joi.string()
    .max(64)
    .description(
      'A catalog method that collects `currency` (`promptpay`, `paynow`, `duitnow`, `qris`, `gcash`, `truemoney`, `alipay_plus`), preselected on the checkout page; the payer may still pick another.',
    ),
  channel_preference: Joi.string().max(64).description('The channel to try first when it can take the payment: `simulator` or `rest`.'),
  description: Joi.string()
    .allow('')
    .max(PAYMENT_INTENT_LIMITS.descriptionLength)
    .description(`Text for the payer’s checkout page, at most ${PAYMENT_INTENT_LIMITS.descriptionLength} characters.`),
  customer: Joi.string()
    .max(PAYMENT_INTENT_LIMITS.customerLength)
    .description(`Your reference for the payer, at most ${PAYMENT_INTENT_LIMITS.customerLength} characters.`),
  return_url: Joi.string()
    .max(MAX_RETURN_URL_LENGTH)
    .description(
      `Where the checkout page sends the payer afterwards: an absolute https URL on a public host name, at most ${MAX_RETURN_URL_LENGTH} characters; any refusal is 400 invalid_return_url.`,
    ),
  expires_in: Joi.number()
    .integer()
    .min(PAYMENT_INTENT_LIMITS.expiresIn.min)
    .max(PAYMENT_INTENT_LIMITS.expiresIn.max)
    .description(`Seconds until the intent expires unpaid, ${PAYMENT_INTENT_LIMITS.expiresIn.min} to ${PAYMENT_INTENT_LIMITS.expiresIn.max}; default 3600.`),
  metadata,
});

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents',
  access: 'api-key',
  permission: 'payment_intents:write',
  idempotent: { transactional: true },
  validate: { payload: paymentIntentCreateBody },
  openapi: {
    operationId: 'createPaymentIntent',
    summary: 'Create a payment intent (the answer carries checkout_url; an identical retry replays it)',
    description:
      'Answers 201 with the intent in `created` and `checkout_url`, the hosted page to send the payer to; only this answer (and its replay under the same ' +
      'Idempotency-Key) ever carries it. Nothing is coerced and unknown fields are refused by name (400 `invalid_parameter`). A used `merchant_order_id` of this ' +
      'mode is 409 `merchant_order_id_taken`; a `return_url` that is not a public https URL is 400 `invalid_return_url`. An intent in another currency than the ' +
      'settlement currency carries `fx`, and is refused (400, `param: amount`) when its amount converted at today’s rate passes half of 2^53 − 1.',
    tag: 'Payment intents',
    success: { status: 201, schema: PAYMENT_SCHEMAS.PaymentIntent, description: 'The payment intent.', example: PAYMENT_EXAMPLES.created },
    requestBody: { name: 'PaymentIntentCreateParams', example: PAYMENT_EXAMPLES.createParams },
    errors: { 400: ['invalid_return_url'], 409: ['merchant_order_id_taken'] },
  },
  uses: { createPaymentIntent: CreatePaymentIntent },
  handler:
    ({ createPaymentIntent }) =>
    async (request) => {
      const body = request.payload;
      const { intent, checkoutUrl } = await createPaymentIntent.execute({
        scope: scopeOf(request),
        settlementCurrency: callerOf(request).merchant.settlementCurrency,
        amount: body.amount,
        currency: body.currency,
        merchantOrderId: body.merchant_order_id,
        paymentMethod: body.payment_method,
        channelPreference: body.channel_preference,
        description: body.description,
        customer: body.customer,
        returnUrl: body.return_url,
        expiresIn: body.expires_in,
        metadata: body.metadata,
      });
      return { status: 201, body: presentPaymentIntent(intent, checkoutUrl) };
    },
});
