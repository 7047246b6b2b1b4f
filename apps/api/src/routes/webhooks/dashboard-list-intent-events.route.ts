import { GetPaymentIntent, ListPaymentIntentEvents, renderEvent } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { intentScope } from '../payments/intent-scope';
import { modeQuery, paymentIntentParams } from '../schemas';
import { EVENT_SCHEMAS } from './presenters';

/** *mode*: the events about one intent, oldest first: the intent's timeline, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}/events',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: modeQuery },
  openapi: {
    operationId: 'listPaymentIntentEvents',
    summary: 'List the events about a payment intent, oldest first',
    description:
      'Every event about the intent: its own payment_intent.* events and those of its refunds (refund.*, whether or not any endpoint subscribes to them) and disputes (dispute.*), ' +
      'each with the body GET /v1/events shows. An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: EVENT_SCHEMAS.EventList, description: "The intent's events." },
    errors: [404],
  },
  uses: { getIntent: GetPaymentIntent, listEvents: ListPaymentIntentEvents },
  handler:
    ({ getIntent, listEvents }) =>
    async (request) => {
      const scope = await intentScope(getIntent, request, request.query.mode, request.params.id);
      return presentList(await listEvents.execute({ scope, paymentIntentId: request.params.id }), (event) => renderEvent(event));
    },
});
