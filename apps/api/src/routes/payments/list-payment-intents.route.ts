import { ID_PATTERNS, ListPaymentIntents, PAYMENT_INTENT_LIMITS, PAYMENT_INTENT_STATUSES } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit } from '../schemas';
import { presentPaymentIntent } from './presenters';

const paymentIntentListQuery = objectSchema({
  limit,
  starting_after: Joi.string().pattern(ID_PATTERNS.payment_intent, 'payment intent id'),
  status: oneOf(PAYMENT_INTENT_STATUSES),
  merchant_order_id: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength),
  'created[gte]': Joi.date().iso(),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/payment_intents',
  access: 'api-key',
  validate: { query: paymentIntentListQuery },
  openapi: {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntentList', description: 'A page of payment intents.' },
  },
  uses: { listPaymentIntents: ListPaymentIntents },
  handler:
    ({ listPaymentIntents }) =>
    async (request) => {
      const { query } = request;
      const page = await listPaymentIntents.execute({
        scope: scopeOf(request),
        filter: { status: query.status, merchantOrderId: query.merchant_order_id, createdGte: query['created[gte]'] },
        page: { limit: query.limit, startingAfter: query.starting_after },
      });
      return presentList(page, (intent) => presentPaymentIntent(intent));
    },
});
