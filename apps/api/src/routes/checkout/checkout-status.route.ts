import { GetCheckoutState } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentCheckoutState } from '../../plugins/checkout/presenter';
import { checkoutTokenParams } from '../schemas';

/** What the page polls while the payer pays. */
export default defineRoute({
  method: 'GET',
  path: '/checkout/sessions/{token}/status',
  access: 'checkout-token',
  validate: { params: checkoutTokenParams },
  uses: { getCheckoutState: GetCheckoutState },
  handler:
    ({ getCheckoutState }) =>
    async (request) =>
      presentCheckoutState(await getCheckoutState.execute({ token: request.params.token })),
});
