import { AdvanceTimer } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { jsonBody, paymentIntentParams } from '../schemas';
import { PAYMENT_EXAMPLES, PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

const advanceBody = jsonBody({
  clock: required(oneOf(['expiry', 'release'])).description(
    'The timer to move: `expiry` (runs while the intent is created, requires_payment or failed) or `release` (runs while it is channel_settled and not released yet).',
  ),
});

/** Test mode: move a timer to now. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/payment_intents/{id}/advance',
  access: 'api-key',
  permission: 'payment_intents:write',
  idempotent: { transactional: true },
  validate: { params: paymentIntentParams, payload: advanceBody },
  openapi: {
    operationId: 'advancePaymentIntentClock',
    summary: 'Test mode: move a running timer (expiry or release) to now',
    description:
      'Test keys only (a live key is 403 `test_mode_required`). Moves the deadline of the timer (`expires_at` or `available_at`) to now; the worker acts on its next tick, ' +
      'as in live mode. A timer that is not running (never started, or already fired) is 409 `invalid_state_transition`; a timer is never moved later, ' +
      'so a repeat while it runs answers the intent unchanged.',
    tag: 'Test helpers',
    success: {
      status: 200,
      schema: PAYMENT_SCHEMAS.PaymentIntent,
      description: 'The payment intent with the timer moved.',
      example: PAYMENT_EXAMPLES.channelSettled,
    },
    requestBody: { name: 'PaymentIntentAdvanceParams', example: { clock: 'release' } },
    errors: { 403: ['test_mode_required'], 404: ['resource_not_found'], 409: ['invalid_state_transition'] },
  },
  uses: { advanceTimer: AdvanceTimer },
  handler:
    ({ advanceTimer }) =>
    async (request) => {
      const intent = await advanceTimer.execute({ scope: scopeOf(request), intentId: request.params.id, timer: request.payload.clock });
      return { status: 200, body: presentPaymentIntent(intent) };
    },
});
