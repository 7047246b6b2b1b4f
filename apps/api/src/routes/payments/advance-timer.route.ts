import { AdvanceTimer } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { jsonBody, paymentIntentParams } from '../schemas';
import { presentPaymentIntent } from './presenters';

const advanceBody = jsonBody({ clock: required(oneOf(['expiry', 'release'])) });

/** Test mode: move a timer to now. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/payment_intents/{id}/advance',
  access: 'api-key',
  idempotent: { transactional: true },
  validate: { params: paymentIntentParams, payload: advanceBody },
  openapi: {
    operationId: 'advancePaymentIntentClock',
    summary: 'Test mode: move a running timer (expiry or release) to now',
    tag: 'Test helpers',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent with the timer moved.' },
    requestBody: 'PaymentIntentAdvanceParams',
    errors: [404, ...POST_ERRORS],
  },
  uses: { advanceTimer: AdvanceTimer },
  handler:
    ({ advanceTimer }) =>
    async (request) => {
      const intent = await advanceTimer.execute({ scope: scopeOf(request), intentId: request.params.id, timer: request.payload.clock });
      return { status: 200, body: presentPaymentIntent(intent) };
    },
});
