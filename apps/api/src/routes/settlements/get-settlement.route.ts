import { GetSettlement, SummarizeSettlements } from '@payments/core';
import { exactResponse } from '../../http/exact-json';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { settlementParams } from '../schemas';
import { SETTLEMENT_SCHEMAS, presentSettlement } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/settlements/{id}',
  access: 'api-key',
  permission: 'settlements:read',
  validate: { params: settlementParams },
  openapi: {
    operationId: 'retrieveSettlement',
    summary: 'Retrieve a settlement',
    description:
      'A settlement as it stands now, with its `summary`: what it pays by the type of the lines it covers. Another merchant’s settlement, or one of the other mode, is 404 `resource_not_found` like an unknown one.',
    tag: 'Settlements',
    success: { status: 200, schema: SETTLEMENT_SCHEMAS.Settlement, description: 'The settlement.' },
    errors: { 404: ['resource_not_found'] },
  },
  uses: { getSettlement: GetSettlement, summarize: SummarizeSettlements },
  handler:
    ({ getSettlement, summarize }) =>
    async (request, h) => {
      const settlement = await getSettlement.execute({ scope: scopeOf(request), id: request.params.id });
      return exactResponse(h, presentSettlement(settlement, await summarize.one(settlement)));
    },
});
