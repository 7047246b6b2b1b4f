import { GetPaymentIntent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { paymentIntentParams } from '../schemas';
import { presentPaymentIntent } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents/{id}',
  access: 'api-key',
  validate: { params: paymentIntentParams },
  openapi: {
    operationId: 'retrievePaymentIntent',
    summary: 'Retrieve a payment intent',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent.' },
    errors: [404],
  },
  uses: { getPaymentIntent: GetPaymentIntent },
  handler:
    ({ getPaymentIntent }) =>
    async (request) =>
      presentPaymentIntent(await getPaymentIntent.execute({ scope: scopeOf(request), id: request.params.id })),
});
