import { MAX_AMOUNT, SIMULATE_OUTCOMES, SimulatePayment } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../http/idempotency';
import { currency, jsonBody, paymentIntentParams } from '../schemas';
import { PAYMENT_EXAMPLES, PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

const simulateBody = jsonBody({
  outcome: required(oneOf(SIMULATE_OUTCOMES)).description(
    'What the channel reports: `succeeded`, `failed`, `pending` (the payer acted, the channel is processing), or of a dispute over the paid amount: ' +
      '`dispute_opened`, then `dispute_won` or `dispute_lost`.',
  ),
  failure_code: Joi.string().max(64).description('With `failed` only: `insufficient_funds`, `payer_cancelled` (the default) or `risk_blocked`.'),
  amount: Joi.number()
    .integer()
    .min(0)
    .max(MAX_AMOUNT)
    .description('What the callback claims was paid (payment outcomes only). The confirming query answers the order book, so it changes nothing.'),
  currency: currency.description('What the callback claims the currency was (payment outcomes only); changes nothing, like `amount`.'),
});

/** Test mode: tell the channel what to report. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/payment_intents/{id}/simulate',
  access: 'api-key',
  permission: 'payment_intents:write',
  // The simulated callback reaches the service over HTTP while this request waits. Nothing is
  // written before the call: the channel remembers the key with what it was told (`simulationKey`),
  // so a retry whose first try took effect is answered, not refused.
  idempotent: { transactional: false, resumes: 'channel' },
  validate: { params: paymentIntentParams, payload: simulateBody },
  openapi: {
    operationId: 'simulatePaymentIntent',
    summary: 'Test mode: tell the channel what to report, and wait for its callback',
    description:
      'Test keys only (a live key is 403 `test_mode_required`). Tells the channel of the pending attempt what to report (replacing a magic outcome not reported yet); ' +
      'its signed callback takes the real path (signature, confirming query, state change), and the answer is the intent once the callback landed. ' +
      'No pending attempt with an order is 409 `invalid_state_transition`; a channel that cannot simulate (`rest`) is 409 `simulation_unsupported`. ' +
      'Dispute outcomes need a succeeded or channel_settled intent: `dispute_opened` with no open dispute and no lost one, a ruling with an open one ' +
      '(else 409 `invalid_state_transition`); `amount` and `currency` go with payment outcomes only (400).',
    tag: 'Test helpers',
    success: {
      status: 200,
      schema: PAYMENT_SCHEMAS.PaymentIntent,
      description: 'The payment intent as it stands once the callback landed.',
      example: PAYMENT_EXAMPLES.succeeded,
    },
    requestBody: { name: 'PaymentIntentSimulateParams', example: { outcome: 'succeeded' } },
    errors: {
      403: ['test_mode_required'],
      404: ['resource_not_found'],
      409: ['invalid_state_transition', 'simulation_unsupported'],
      503: ['channel_error'],
    },
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
