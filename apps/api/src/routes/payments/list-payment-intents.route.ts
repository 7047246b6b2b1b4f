import { ListPaymentIntents } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { pageOf } from '../schemas';
import { paymentIntentFilter, paymentIntentListFields } from './payment-intent-query';
import { PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { query: objectSchema(paymentIntentListFields) },
  openapi: {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    description:
      'The intents of the key’s merchant and mode, newest first, a page at a time. The filters combine. Any other query parameter, or a `starting_after` ' +
      'that is not an intent of this merchant and mode, is 400 `invalid_parameter` naming it.',
    tag: 'Payment intents',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentIntentList, description: 'A page of payment intents.' },
  },
  uses: { listPaymentIntents: ListPaymentIntents },
  handler:
    ({ listPaymentIntents }) =>
    async (request) => {
      const { query } = request;
      const page = await listPaymentIntents.execute({ scope: scopeOf(request), filter: paymentIntentFilter(query), page: pageOf(query) });
      return presentList(page, (intent) => presentPaymentIntent(intent));
    },
});
