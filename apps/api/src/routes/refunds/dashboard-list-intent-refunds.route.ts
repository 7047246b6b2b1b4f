import { GetPaymentIntent, ID_PATTERNS, ListRefunds, MODES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf, required } from '../../http/typed-schema';
import { actorOf } from '../../plugins/dashboard/actor';
import { idParams, limit, refundId } from '../schemas';
import { presentRefund } from './presenter';

const refundsQuery = objectSchema({ mode: required(oneOf(MODES)), limit, starting_after: refundId });

/** *mode*: an intent's refunds, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}/refunds',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: idParams(ID_PATTERNS.payment_intent, 'payment intent id'), query: refundsQuery },
  openapi: {
    operationId: 'listPaymentIntentRefunds',
    summary: "List a payment intent's refunds, newest first",
    description: 'An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: 'RefundList', description: 'A page of refunds.' },
    errors: [404],
  },
  uses: { getIntent: GetPaymentIntent, listRefunds: ListRefunds },
  handler:
    ({ getIntent, listRefunds }) =>
    async (request) => {
      const { query } = request;
      const scope = { merchantId: actorOf(request).user.merchantId, mode: query.mode };
      await getIntent.execute({ scope, id: request.params.id });
      const page = await listRefunds.execute({
        scope,
        filter: { paymentIntentId: request.params.id },
        page: { limit: query.limit, startingAfter: query.starting_after },
      });
      return presentList(page, presentRefund);
    },
});
