import { GetPaymentIntent, PaymentMoneyStatuses } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery, paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentDashboardPaymentIntent } from './presenters';

/** *mode*: one intent as the merchant API shows it (fee, net, fx, amount_refunded) with its money statuses, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: modeQuery },
  openapi: {
    operationId: 'retrievePaymentIntent',
    summary: 'Retrieve a payment intent',
    description: 'As GET /v1/payment_intents/{id} shows it, with its `money_statuses`. An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.DashboardPaymentIntent, description: 'The payment intent.' },
    errors: [404],
  },
  uses: { getPaymentIntent: GetPaymentIntent, paymentMoneyStatuses: PaymentMoneyStatuses },
  handler:
    ({ getPaymentIntent, paymentMoneyStatuses }) =>
    async (request) => {
      const scope = scopeIn(request, request.query.mode);
      const intent = await getPaymentIntent.execute({ scope, id: request.params.id });
      const statuses = await paymentMoneyStatuses.execute(scope, [intent]);
      return presentDashboardPaymentIntent(intent, statuses.get(intent.id) ?? []);
    },
});
