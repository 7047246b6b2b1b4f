import { GetSettlement } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { settlementParams } from '../schemas';
import { presentSettlement } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/settlements/{id}',
  access: 'api-key',
  validate: { params: settlementParams },
  openapi: {
    operationId: 'retrieveSettlement',
    summary: 'Retrieve a settlement',
    tag: 'Settlements',
    success: { status: 200, schema: 'Settlement', description: 'The settlement.' },
    errors: [404],
  },
  uses: { getSettlement: GetSettlement },
  handler:
    ({ getSettlement }) =>
    async (request) =>
      presentSettlement(await getSettlement.execute({ scope: scopeOf(request), id: request.params.id })),
});
