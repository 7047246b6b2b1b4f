import { GetPaymentIntent, ListRefunds } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { intentScope } from '../payments/intent-scope';
import { limit, pageOf, paymentIntentParams, refundId, withMode } from '../schemas';
import { REFUND_SCHEMAS, presentRefund } from './presenter';

const refundsQuery = withMode({ limit, starting_after: refundId });

/** *mode*: an intent's refunds, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}/refunds',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: refundsQuery },
  openapi: {
    operationId: 'listPaymentIntentRefunds',
    summary: "List a payment intent's refunds, newest first",
    description: 'An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: REFUND_SCHEMAS.RefundList, description: 'A page of refunds.' },
    errors: [404],
  },
  uses: { getIntent: GetPaymentIntent, listRefunds: ListRefunds },
  handler:
    ({ getIntent, listRefunds }) =>
    async (request) => {
      const { query } = request;
      const scope = await intentScope(getIntent, request, query.mode, request.params.id);
      const page = await listRefunds.execute({
        scope,
        filter: { paymentIntentId: request.params.id },
        page: pageOf(query),
      });
      return presentList(page, presentRefund);
    },
});
