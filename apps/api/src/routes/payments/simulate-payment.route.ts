import { MAX_AMOUNT, SIMULATE_OUTCOMES, SimulatePayment } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../plugins/merchant-v1/idempotency';
import { currency, jsonBody, paymentIntentParams } from '../schemas';
import { presentPaymentIntent } from './presenters';

const simulateBody = jsonBody({
  outcome: required(oneOf(SIMULATE_OUTCOMES)),
  failure_code: Joi.string().max(64),
  amount: Joi.number().integer().min(0).max(MAX_AMOUNT),
  currency,
});

/** Test mode: tell the channel what to report. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/payment_intents/{id}/simulate',
  access: 'api-key',
  // The simulated callback reaches the service over HTTP while this request waits.
  idempotent: { transactional: false },
  validate: { params: paymentIntentParams, payload: simulateBody },
  openapi: {
    operationId: 'simulatePaymentIntent',
    summary: 'Test mode: tell the channel what to report, and wait for its callback',
    tag: 'Test helpers',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent as it stands once the callback landed.' },
    requestBody: 'PaymentIntentSimulateParams',
    errors: [404, ...POST_ERRORS],
  },
  uses: { simulatePayment: SimulatePayment },
  handler:
    ({ simulatePayment }) =>
    async (request) => {
      const body = request.payload;
      const intent = await simulatePayment.execute({
        scope: scopeOf(request),
        intentId: request.params.id,
        outcome: body.outcome,
        failureCode: body.failure_code,
        amount: body.amount,
        currency: body.currency,
        // Lets a retry whose first try reached the channel (and then lost its answer) be recognised.
        simulationKey: idempotencyKeyOf(request),
      });
      return { status: 200, body: presentPaymentIntent(intent) };
    },
});
