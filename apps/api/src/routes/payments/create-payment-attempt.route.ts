import { CoreError, PlaceAttempt } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { errorBody } from '../../http/error-envelope';
import { required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { jsonBody, paymentIntentParams } from '../schemas';
import { presentAttempt } from './presenters';

const attemptCreateBody = jsonBody({
  payment_method: required(Joi.string().max(64)),
  channel: Joi.string().max(64),
});

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents/{id}/attempts',
  access: 'api-key',
  // The channel is called: see RunIdempotently for why this runs outside one transaction.
  idempotent: { transactional: false },
  validate: { params: paymentIntentParams, payload: attemptCreateBody },
  openapi: {
    operationId: 'createPaymentAttempt',
    summary: 'Place an attempt at a channel (a pending attempt is answered again with 200)',
    tag: 'Payment attempts',
    success: { status: 201, schema: 'PaymentAttempt', description: 'The attempt, with its credential in next_action.', alsoWith: [200] },
    requestBody: 'PaymentAttemptCreateParams',
    errors: [402, 404, ...POST_ERRORS],
  },
  uses: { placeAttempt: PlaceAttempt },
  handler:
    ({ placeAttempt }) =>
    async (request) => {
      const { attempt, created } = await placeAttempt.execute({
        scope: scopeOf(request),
        intentId: request.params.id,
        paymentMethod: request.payload.payment_method,
        channel: request.payload.channel,
      });
      if (created && attempt.status === 'failed') {
        // A refused order is recorded (the attempt stays in the history) and answered 402.
        const refusal = new CoreError(
          'payment_failed',
          'payment_failed',
          `The channel refused the payment (attempt ${attempt.id}): ${attempt.failureMessage ?? attempt.failureCode}`,
        );
        return { status: 402, body: errorBody(refusal, request.app.requestId) };
      }
      return { status: created ? 201 : 200, body: presentAttempt(attempt) };
    },
});
