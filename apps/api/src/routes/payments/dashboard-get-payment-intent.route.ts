import { GetPaymentIntent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery, paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

/** *mode*: one intent as the merchant API shows it (fee, net, fx, amount_refunded), for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: modeQuery },
  openapi: {
    operationId: 'retrievePaymentIntent',
    summary: 'Retrieve a payment intent',
    description: 'As GET /v1/payment_intents/{id} shows it. An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentIntent, description: 'The payment intent.' },
    errors: [404],
  },
  uses: { getPaymentIntent: GetPaymentIntent },
  handler:
    ({ getPaymentIntent }) =>
    async (request) =>
      presentPaymentIntent(await getPaymentIntent.execute({ scope: scopeIn(request, request.query.mode), id: request.params.id })),
});
