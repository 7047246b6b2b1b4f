import { CoreError, PlaceAttempt } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { errorBody } from '../../http/error-envelope';
import { required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { jsonBody, paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentAttempt } from './presenters';

const attemptCreateBody = jsonBody({
  payment_method: required(Joi.string().max(64)).description('A catalog method that collects the intent’s currency (`promptpay`, `gcash` …).'),
  channel: Joi.string()
    .max(64)
    .description(
      'The channel to place the order with; it must serve the mode, the method and the currency. Left out: the intent’s `channel_preference`, else the first that can.',
    ),
});

export default defineRoute({
  method: 'POST',
  path: '/v1/payment_intents/{id}/attempts',
  access: 'api-key',
  permission: 'payment_intents:write',
  // The channel is called between two transactions (see PlaceAttempt): the first binds the attempt
  // to the key, and a retry resumes with it.
  idempotent: { transactional: false, resumes: 'payment_attempt' },
  validate: { params: paymentIntentParams, payload: attemptCreateBody },
  openapi: {
    operationId: 'createPaymentAttempt',
    summary: 'Place an attempt at a channel (a pending attempt is answered again with 200)',
    description:
      'Places an order with a channel and answers the attempt with the payer’s credential in `next_action` (a QR payload or a redirect URL): 201. ' +
      'One pending attempt at a time: while one is pending it is answered again, 200, and no second order is placed, whatever method the body names. ' +
      'An attempt starts only from `created`, `requires_payment` or `failed`, before `expires_at` (else 409 `invalid_state_transition`). ' +
      'A method that does not collect the intent’s currency is 400 naming `payment_method`; a channel that cannot take it, 400 naming `channel`. ' +
      'A channel that refuses the order at once, or cannot be reached, leaves a failed attempt in the history, makes the intent `failed`, and is 402 `payment_failed`.',
    tag: 'Payment attempts',
    success: {
      status: 201,
      schema: PAYMENT_SCHEMAS.PaymentAttempt,
      description: 'The attempt, with its credential in next_action (200: the pending attempt, answered again).',
      alsoWith: [200],
    },
    requestBody: { name: 'PaymentAttemptCreateParams', example: { payment_method: 'promptpay' } },
    errors: { 402: ['payment_failed'], 404: ['resource_not_found'], 409: ['invalid_state_transition'] },
  },
  uses: { placeAttempt: PlaceAttempt },
  handler:
    ({ placeAttempt }) =>
    async (request, _h, recovery) => {
      const { attempt, created } = await placeAttempt.execute({
        scope: scopeOf(request),
        intentId: request.params.id,
        paymentMethod: request.payload.payment_method,
        channel: request.payload.channel,
        recovery,
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
