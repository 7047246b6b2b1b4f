import { DISPUTE_STATUSES, ListDisputes } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema, oneOf } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeId, limit } from '../schemas';
import { presentDispute } from './presenter';

const disputeListQuery = objectSchema({
  limit,
  starting_after: disputeId,
  status: oneOf(DISPUTE_STATUSES),
});

export default defineRoute({
  method: 'GET',
  path: '/v1/disputes',
  access: 'api-key',
  validate: { query: disputeListQuery },
  openapi: {
    operationId: 'listDisputes',
    summary: 'List disputes, newest first',
    tag: 'Disputes',
    success: { status: 200, schema: 'DisputeList', description: 'A page of disputes.' },
  },
  uses: { listDisputes: ListDisputes },
  handler:
    ({ listDisputes }) =>
    async (request) => {
      const { query } = request;
      const page = await listDisputes.execute({
        scope: scopeOf(request),
        filter: { status: query.status },
        page: { limit: query.limit, startingAfter: query.starting_after },
      });
      return presentList(page, presentDispute);
    },
});
