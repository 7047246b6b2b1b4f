import { ListAttempts } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { paymentIntentParams } from '../schemas';
import { PAYMENT_SCHEMAS, presentAttempt } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents/{id}/attempts',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { params: paymentIntentParams },
  openapi: {
    operationId: 'listPaymentAttempts',
    summary: "List an intent's attempts, oldest first",
    description:
      'Every attempt of the intent, oldest first, in one page (`has_more` is always false). An intent of another merchant or mode is 404 `resource_not_found`.',
    tag: 'Payment attempts',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentAttemptList, description: 'Every attempt of the intent.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { listAttempts: ListAttempts },
  handler:
    ({ listAttempts }) =>
    async (request) =>
      presentList(await listAttempts.execute({ scope: scopeOf(request), intentId: request.params.id }), presentAttempt),
});
