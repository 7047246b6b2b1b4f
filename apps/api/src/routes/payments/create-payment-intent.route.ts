import { CreatePaymentIntent, MAX_AMOUNT, MAX_CONVERTED_AT_CREATION, MAX_RETURN_URL_LENGTH, PAYMENT_INTENT_LIMITS } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { callerOf, scopeOf } from '../../plugins/merchant-v1/caller';
import { currency, jsonBody, metadata } from '../schemas';
import { presentPaymentIntent } from './presenters';

/** Shapes only; the domain rules (currency, catalog, return_url) live in core. */
export const paymentIntentCreateBody = jsonBody({
  amount: required(Joi.number().integer().min(1).max(MAX_AMOUNT)).description(
    `Minor units of currency, 1 to ${MAX_AMOUNT} (2^53 − 1, the largest integer every JSON reader holds exactly). ` +
      `In another currency than the settlement currency, the amount converted at today's rate may be at most ${MAX_CONVERTED_AT_CREATION} ` +
      '(half of 2^53 − 1, so the rate may move before it locks); more is 400 invalid_parameter with param amount.',
  ),
  currency: required(currency),
  merchant_order_id: required(Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength)),
  payment_method: Joi.string().max(64),
  channel_preference: Joi.string().max(64),
  description: Joi.string().allow('').max(PAYMENT_INTENT_LIMITS.descriptionLength),
  customer: Joi.string().max(PAYMENT_INTENT_LIMITS.customerLength),
  return_url: Joi.string().max(MAX_RETURN_URL_LENGTH),
  expires_in: Joi.number().integer().min(PAYMENT_INTENT_LIMITS.expiresIn.min).max(PAYMENT_INTENT_LIMITS.expiresIn.max),
  metadata,
});

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents',
  access: 'api-key',
  idempotent: { transactional: true },
  validate: { payload: paymentIntentCreateBody },
  openapi: {
    operationId: 'createPaymentIntent',
    summary: 'Create a payment intent (the answer carries checkout_url; an identical retry replays it)',
    tag: 'Payment intents',
    success: { status: 201, schema: 'PaymentIntent', description: 'The payment intent.' },
    requestBody: 'PaymentIntentCreateParams',
    errors: POST_ERRORS,
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
