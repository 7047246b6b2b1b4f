import { ID_PATTERNS, ListRefunds, REFUND_STATUSES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idOf, limit, refundId } from '../schemas';
import { presentRefund } from './presenter';

const refundListQuery = objectSchema({
  limit,
  starting_after: refundId,
  payment_intent: idOf(ID_PATTERNS.payment_intent, 'payment intent id'),
  status: oneOf(REFUND_STATUSES),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/refunds',
  access: 'api-key',
  validate: { query: refundListQuery },
  openapi: {
    operationId: 'listRefunds',
    summary: 'List refunds, newest first (of one payment intent with payment_intent)',
    tag: 'Refunds',
    success: { status: 200, schema: 'RefundList', description: 'A page of refunds.' },
  },
  uses: { listRefunds: ListRefunds },
  handler:
    ({ listRefunds }) =>
    async (request) => {
      const { query } = request;
      const page = await listRefunds.execute({
        scope: scopeOf(request),
        filter: { status: query.status, paymentIntentId: query.payment_intent },
        page: { limit: query.limit, startingAfter: query.starting_after },
      });
      return presentList(page, presentRefund);
    },
});
