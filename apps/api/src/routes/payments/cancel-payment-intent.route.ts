import { CancelPaymentIntent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { noBody, paymentIntentParams } from '../schemas';
import { PAYMENT_EXAMPLES, PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents/{id}/cancel',
  access: 'api-key',
  permission: 'payment_intents:write',
  idempotent: { transactional: true },
  validate: { params: paymentIntentParams, payload: noBody },
  openapi: {
    operationId: 'cancelPaymentIntent',
    summary: 'Cancel a payment intent that is created or requires_payment',
    description:
      'Takes no body (or `{}`). Only an intent in `created` or `requires_payment` can be canceled; any other status is 409 `invalid_state_transition` ' +
      '(so a `processing` or `failed` intent cannot be). A pending attempt fails with `canceled` and its order is voided at the channel. ' +
      'Should the payer pay the voided order anyway, the intent still becomes `succeeded`: money a channel confirms is never dropped.',
    tag: 'Payment intents',
    success: {
      status: 200,
      schema: PAYMENT_SCHEMAS.PaymentIntent,
      description: 'The canceled payment intent.',
      example: PAYMENT_EXAMPLES.canceled,
    },
    errors: { 404: ['resource_not_found'], 409: ['invalid_state_transition'] },
  },
  uses: { cancelPaymentIntent: CancelPaymentIntent },
  handler:
    ({ cancelPaymentIntent }) =>
    async (request) => {
      const intent = await cancelPaymentIntent.execute({ scope: scopeOf(request), id: request.params.id });
      return { status: 200, body: presentPaymentIntent(intent) };
    },
});
