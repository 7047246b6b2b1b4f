import { CoreError, PayCheckoutSession } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { errorBody } from '../../http/error-envelope';
import { objectSchema, required } from '../../http/typed-schema';
import { presentCheckoutState } from '../../plugins/checkout/presenter';
import { checkoutTokenParams } from '../schemas';

/** The payer chose a method: an attempt is placed at its channel. */
export default defineRoute({
  method: 'POST',
  path: '/checkout/sessions/{token}/pay',
  access: 'checkout-token',
  validate: { params: checkoutTokenParams, payload: objectSchema({ payment_method: required(Joi.string().max(64)) }) },
  uses: { payCheckoutSession: PayCheckoutSession },
  handler:
    ({ payCheckoutSession }) =>
    async (request, h) => {
      const { state, refused } = await payCheckoutSession.execute({ token: request.params.token, paymentMethod: request.payload.payment_method });
      if (refused) {
        // As on /v1: a channel that refuses the order at once is a failed attempt and a 402.
        const refusal = new CoreError('payment_failed', 'payment_failed', 'The payment channel refused the payment; choose a method and try again.');
        return h.response(errorBody(refusal, request.app.requestId)).code(402);
      }
      return presentCheckoutState(state);
    },
});
