import { DISPUTE_STATUSES, ListDisputes } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeId, limit, pageOf, startingAfter } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

const disputeListQuery = objectSchema({
  limit,
  starting_after: startingAfter(disputeId),
  status: oneOf(DISPUTE_STATUSES).description('Only disputes in this status.'),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/disputes',
  access: 'api-key',
  permission: 'disputes:read',
  validate: { query: disputeListQuery },
  openapi: {
    operationId: 'listDisputes',
    summary: 'List disputes, newest first',
    description:
      'The disputes of the key’s merchant and mode, newest first, a page at a time. A `starting_after` that is not a dispute of this merchant and mode is 400 `invalid_parameter`.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.DisputeList, description: 'A page of disputes.' },
  },
  uses: { listDisputes: ListDisputes },
  handler:
    ({ listDisputes }) =>
    async (request) => {
      const { query } = request;
      const page = await listDisputes.execute({
        scope: scopeOf(request),
        filter: { status: query.status },
        page: pageOf(query),
      });
      return presentList(page, presentDispute);
    },
});
