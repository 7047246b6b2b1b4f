import { GetDispute } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { disputeParams, modeQuery } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

/** *mode*: one dispute as the merchant API shows it, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/disputes/{id}',
  access: 'dashboard',
  action: 'disputes.read',
  validate: { params: disputeParams, query: modeQuery },
  openapi: {
    operationId: 'retrieveDispute',
    summary: 'Retrieve a dispute',
    description: 'A dispute of another merchant or of the other mode is 404.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.Dispute, description: 'The dispute.' },
    errors: [404],
  },
  uses: { getDispute: GetDispute },
  handler:
    ({ getDispute }) =>
    async (request) =>
      presentDispute(await getDispute.execute({ scope: scopeIn(request, request.query.mode), id: request.params.id })),
});
