import { GetDispute } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeParams } from '../schemas';
import { presentDispute } from './presenter';

export default defineRoute({
  method: 'GET',
  path: '/v1/disputes/{id}',
  access: 'api-key',
  validate: { params: disputeParams },
  openapi: {
    operationId: 'retrieveDispute',
    summary: 'Retrieve a dispute',
    tag: 'Disputes',
    success: { status: 200, schema: 'Dispute', description: 'The dispute.' },
    errors: [404],
  },
  uses: { getDispute: GetDispute },
  handler:
    ({ getDispute }) =>
    async (request) =>
      presentDispute(await getDispute.execute({ scope: scopeOf(request), id: request.params.id })),
});
