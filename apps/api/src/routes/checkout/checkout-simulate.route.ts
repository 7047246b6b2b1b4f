import { CHECKOUT_SIMULATE_OUTCOMES, SimulateCheckoutPayment } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { objectSchema, oneOf, required } from '../../http/typed-schema';
import { presentCheckoutState } from '../../plugins/checkout/presenter';
import { checkoutTokenParams } from '../schemas';

const simulateBody = objectSchema({
  outcome: required(oneOf(CHECKOUT_SIMULATE_OUTCOMES)),
  failure_code: Joi.string().max(64),
});

/** Test mode: the page's buttons that make the simulated channel report. */
export default defineRoute({
  method: 'POST',
  path: '/checkout/sessions/{token}/simulate',
  access: 'checkout-token',
  validate: { params: checkoutTokenParams, payload: simulateBody },
  uses: { simulateCheckoutPayment: SimulateCheckoutPayment },
  handler:
    ({ simulateCheckoutPayment }) =>
    async (request) =>
      presentCheckoutState(
        await simulateCheckoutPayment.execute({ token: request.params.token, outcome: request.payload.outcome, failureCode: request.payload.failure_code }),
      ),
});
