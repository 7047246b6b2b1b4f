import { GetSettlement, SummarizeSettlements } from '@payments/core';
import { exactResponse } from '../../http/exact-json';
import { defineRoute } from '../../http/define-route';
import { scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery, settlementParams } from '../schemas';
import { SETTLEMENT_SCHEMAS, presentSettlement } from './presenters';

/** *mode*: one settlement as the merchant API shows it, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/settlements/{id}',
  access: 'dashboard',
  action: 'settlements.read',
  validate: { params: settlementParams, query: modeQuery },
  openapi: {
    operationId: 'retrieveSettlement',
    summary: 'Retrieve a settlement',
    description:
      'With its `summary` (what it pays by line type; the lines themselves: balance transactions of the settlement). A settlement of another merchant or of the other mode is 404.',
    tag: 'Settlements',
    success: { status: 200, schema: SETTLEMENT_SCHEMAS.Settlement, description: 'The settlement.' },
    errors: [404],
  },
  uses: { getSettlement: GetSettlement, summarize: SummarizeSettlements },
  handler:
    ({ getSettlement, summarize }) =>
    async (request, h) => {
      const settlement = await getSettlement.execute({ scope: scopeIn(request, request.query.mode), id: request.params.id });
      return exactResponse(h, presentSettlement(settlement, await summarize.one(settlement)));
    },
});
