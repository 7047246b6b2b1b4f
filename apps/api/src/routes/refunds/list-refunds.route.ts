import { ID_PATTERNS, ListRefunds, REFUND_STATUSES } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idOf, limit, pageOf, refundId, startingAfter } from '../schemas';
import { REFUND_SCHEMAS, presentRefund } from './presenter';

const refundListQuery = objectSchema({
  limit,
  starting_after: startingAfter(refundId),
  payment_intent: idOf(ID_PATTERNS.payment_intent, 'payment intent id').description('Only the refunds of this payment intent.'),
  status: oneOf(REFUND_STATUSES).description('Only refunds in this status.'),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/refunds',
  access: 'api-key',
  permission: 'refunds:read',
  validate: { query: refundListQuery },
  openapi: {
    operationId: 'listRefunds',
    summary: 'List refunds, newest first (of one payment intent with payment_intent)',
    description:
      'The refunds of the key’s merchant and mode, newest first, a page at a time; the filters combine. A `starting_after` that is not a refund of this merchant and mode is 400 `invalid_parameter`.',
    tag: 'Refunds',
    success: { status: 200, schema: REFUND_SCHEMAS.RefundList, description: 'A page of refunds.' },
  },
  uses: { listRefunds: ListRefunds },
  handler:
    ({ listRefunds }) =>
    async (request) => {
      const { query } = request;
      const page = await listRefunds.execute({
        scope: scopeOf(request),
        filter: { status: query.status, paymentIntentId: query.payment_intent },
        page: pageOf(query),
      });
      return presentList(page, presentRefund);
    },
});
