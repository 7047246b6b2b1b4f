import { GetPaymentIntent, ListDisputes } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { intentScope } from '../payments/intent-scope';
import { modeQuery, paymentIntentParams } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

/** An intent is disputed one dispute at a time, so one page holds every dispute it ever had. */
const ALL_OF_AN_INTENT = 100;

/** *mode*: an intent's disputes, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}/disputes',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: modeQuery },
  openapi: {
    operationId: 'listPaymentIntentDisputes',
    summary: "List a payment intent's disputes, newest first",
    description: 'An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: DISPUTE_SCHEMAS.DisputeList, description: "The intent's disputes." },
    errors: [404],
  },
  uses: { getIntent: GetPaymentIntent, listDisputes: ListDisputes },
  handler:
    ({ getIntent, listDisputes }) =>
    async (request) => {
      const scope = await intentScope(getIntent, request, request.query.mode, request.params.id);
      const page = await listDisputes.execute({ scope, filter: { paymentIntentId: request.params.id }, page: { limit: ALL_OF_AN_INTENT } });
      return presentList(page, presentDispute);
    },
});
