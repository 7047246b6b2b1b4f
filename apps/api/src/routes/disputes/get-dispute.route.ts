import { GetDispute } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeParams } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/disputes/{id}',
  access: 'api-key',
  permission: 'disputes:read',
  validate: { params: disputeParams },
  openapi: {
    operationId: 'retrieveDispute',
    summary: 'Retrieve a dispute',
    description: 'A dispute as it stands now. Another merchant’s dispute, or one of the other mode, is 404 `resource_not_found` like an unknown one.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.Dispute, description: 'The dispute.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getDispute: GetDispute },
  handler:
    ({ getDispute }) =>
    async (request) =>
      presentDispute(await getDispute.execute({ scope: scopeOf(request), id: request.params.id })),
});
