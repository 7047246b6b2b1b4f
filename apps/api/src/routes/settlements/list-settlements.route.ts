import { ListSettlements, SummarizeSettlements } from '@payments/core';
import { exactResponse } from '../../http/exact-json';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit, pageOf, settlementId, startingAfter } from '../schemas';
import { SETTLEMENT_SCHEMAS, missingSummary, presentSettlement } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/settlements',
  access: 'api-key',
  permission: 'settlements:read',
  validate: { query: objectSchema({ limit, starting_after: startingAfter(settlementId) }) },
  openapi: {
    operationId: 'listSettlements',
    summary: 'List settlements, newest first',
    description:
      'The settlements of the key’s merchant and mode, newest first, a page at a time. A `starting_after` that is not a settlement of this merchant and mode is 400 `invalid_parameter`.',
    tag: 'Settlements',
    success: { status: 200, schema: SETTLEMENT_SCHEMAS.SettlementList, description: 'A page of settlements.' },
  },
  uses: { listSettlements: ListSettlements, summarize: SummarizeSettlements },
  handler:
    ({ listSettlements, summarize }) =>
    async (request, h) => {
      const page = await listSettlements.execute({
        scope: scopeOf(request),
        page: pageOf(request.query),
      });
      const summaries = await summarize.execute(page.data);
      return exactResponse(
        h,
        presentList(page, (settlement) => presentSettlement(settlement, summaries.get(settlement.id) ?? missingSummary(settlement.id))),
      );
    },
});
