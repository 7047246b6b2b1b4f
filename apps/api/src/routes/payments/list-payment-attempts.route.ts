import { ListAttempts } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { paymentIntentParams } from '../schemas';
import { presentAttempt } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents/{id}/attempts',
  access: 'api-key',
  validate: { params: paymentIntentParams },
  openapi: {
    operationId: 'listPaymentAttempts',
    summary: "List an intent's attempts, oldest first",
    tag: 'Payment attempts',
    success: { status: 200, schema: 'PaymentAttemptList', description: 'Every attempt of the intent.' },
    errors: [404],
  },
  uses: { listAttempts: ListAttempts },
  handler:
    ({ listAttempts }) =>
    async (request) =>
      presentList(await listAttempts.execute({ scope: scopeOf(request), intentId: request.params.id }), presentAttempt),
});
