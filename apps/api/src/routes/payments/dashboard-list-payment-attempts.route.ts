import { ListAttempts } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery, paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentAttempt } from './presenters';

/** *mode*: an intent's attempts, oldest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents/{id}/attempts',
  access: 'dashboard',
  action: 'payments.read',
  validate: { params: paymentIntentParams, query: modeQuery },
  openapi: {
    operationId: 'listPaymentAttempts',
    summary: "List an intent's attempts, oldest first",
    description: 'Every attempt, as GET /v1/payment_intents/{id}/attempts lists them. An intent of another merchant or of the other mode is 404.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentAttemptList, description: 'Every attempt of the intent.' },
    errors: [404],
  },
  uses: { listAttempts: ListAttempts },
  handler:
    ({ listAttempts }) =>
    async (request) =>
      presentList(await listAttempts.execute({ scope: scopeIn(request, request.query.mode), intentId: request.params.id }), presentAttempt),
});
