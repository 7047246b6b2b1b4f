import { ListPaymentIntents, PAYMENT_INTENT_LIMITS, PAYMENT_INTENT_STATUSES } from '@payments/core';
import Joi from 'joi';
import { dateOrDateTime, instantOf } from '../../http/date-range';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { oneOf } from '../../http/typed-schema';
import { scopeIn } from '../../plugins/dashboard/actor';
import { limit, pageOf, paymentIntentId, withMode } from '../schemas';
import { PAYMENT_SCHEMAS, presentPaymentIntent } from './presenters';

const paymentIntentsQuery = withMode({
  limit,
  starting_after: paymentIntentId,
  status: oneOf(PAYMENT_INTENT_STATUSES),
  created_gte: dateOrDateTime.description('Created at or after: a date (its first instant, UTC) or a date-time.'),
  created_lte: dateOrDateTime.description('Created at or before: a date (its whole day, UTC, counts) or a date-time (its whole second, or minute, counts).'),
  q: Joi.string().min(1).max(PAYMENT_INTENT_LIMITS.merchantOrderIdLength).description('An intent id or a merchant_order_id, exactly.'),
});

/** *mode*: the account's intents, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents',
  access: 'dashboard',
  action: 'payments.read',
  validate: { query: paymentIntentsQuery },
  openapi: {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    description:
      'Filters combine: `status`; `created_gte` and `created_lte`, inclusive, each a date or a date-time (a date as `created_lte` takes in its whole day, UTC); ' +
      '`q`, an intent id or a merchant_order_id, matched exactly. `limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.PaymentIntentList, description: 'A page of payment intents.' },
  },
  uses: { listPaymentIntents: ListPaymentIntents },
  handler:
    ({ listPaymentIntents }) =>
    async (request) => {
      const { query } = request;
      const page = await listPaymentIntents.execute({
        scope: scopeIn(request, query.mode),
        filter: {
          status: query.status,
          createdGte: query.created_gte === undefined ? undefined : instantOf(query.created_gte, 'created_gte', false),
          createdLte: query.created_lte === undefined ? undefined : instantOf(query.created_lte, 'created_lte', true),
          idOrMerchantOrderId: query.q,
        },
        page: pageOf(query),
      });
      return presentList(page, (intent) => presentPaymentIntent(intent));
    },
});
