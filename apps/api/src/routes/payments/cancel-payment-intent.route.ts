import { CancelPaymentIntent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { noBody, paymentIntentParams } from '../schemas';
import { presentPaymentIntent } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents/{id}/cancel',
  access: 'api-key',
  idempotent: { transactional: true },
  validate: { params: paymentIntentParams, payload: noBody },
  openapi: {
    operationId: 'cancelPaymentIntent',
    summary: 'Cancel a payment intent that is created or requires_payment',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntent', description: 'The canceled payment intent.' },
    errors: [404, ...POST_ERRORS],
  },
  uses: { cancelPaymentIntent: CancelPaymentIntent },
  handler:
    ({ cancelPaymentIntent }) =>
    async (request) => {
      const intent = await cancelPaymentIntent.execute({ scope: scopeOf(request), id: request.params.id });
      return { status: 200, body: presentPaymentIntent(intent) };
    },
});
