import { ID_PATTERNS, ListPaymentIntents, PAYMENT_INTENT_LIMITS, PAYMENT_INTENT_STATUSES } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit, pageOf, startingAfter } from '../schemas';
import { PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

const paymentIntentListQuery = objectSchema({
  limit,
  starting_after: startingAfter(Joi.string().pattern(ID_PATTERNS.payment_intent, 'payment intent id')),
  status: oneOf(PAYMENT_INTENT_STATUSES).description('Only intents in this status.'),
  merchant_order_id: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength).description('Only the intent with this order reference (exact).'),
  'created[gte]': Joi.date().iso().description('Only intents created at or after this ISO 8601 instant.'),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents',
  access: 'api-key',
  permission: 'payment_intents:read',
  validate: { query: paymentIntentListQuery },
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
      const page = await listPaymentIntents.execute({
        scope: scopeOf(request),
        filter: { status: query.status, merchantOrderId: query.merchant_order_id, createdGte: query['created[gte]'] },
        page: pageOf(query),
      });
      return presentList(page, (intent) => presentPaymentIntent(intent));
    },
});
