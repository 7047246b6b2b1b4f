import { DISPUTE_STATUSES, ListDisputes } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { oneOf } from '../../http/typed-schema';
import { scopeIn } from '../../plugins/dashboard/actor';
import { disputeId, limit, pageOf, withMode } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

const disputesQuery = withMode({ status: oneOf(DISPUTE_STATUSES), limit, starting_after: disputeId });

/** *mode*: the account's disputes, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/disputes',
  access: 'dashboard',
  action: 'disputes.read',
  validate: { query: disputesQuery },
  openapi: {
    operationId: 'listDisputes',
    summary: 'List disputes, newest first',
    description: '`status` keeps one status; `limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.DisputeList, description: 'A page of disputes.' },
  },
  uses: { listDisputes: ListDisputes },
  handler:
    ({ listDisputes }) =>
    async (request) => {
      const { query } = request;
      const page = await listDisputes.execute({
        scope: scopeIn(request, query.mode),
        filter: { status: query.status },
        page: pageOf(query),
      });
      return presentList(page, presentDispute);
    },
});
