import { GetPaymentIntent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents/{id}',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { params: paymentIntentParams },
  openapi: {
    operationId: 'retrievePaymentIntent',
    summary: 'Retrieve a payment intent',
    description:
      'The intent as it stands now (never its `checkout_url`, which only the create answer carries). Another merchant’s intent, or one of the other mode, is 404 ' +
      '`resource_not_found` like an unknown one; an id of the wrong shape is 400 `invalid_parameter` naming `id`.',
    tag: 'Payment intents',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentIntent, description: 'The payment intent.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getPaymentIntent: GetPaymentIntent },
  handler:
    ({ getPaymentIntent }) =>
    async (request) =>
      presentPaymentIntent(await getPaymentIntent.execute({ scope: scopeOf(request), id: request.params.id })),
});
