import { ListSettlements, SummarizeSettlements } from '@payments/core';
import { exactResponse } from '../../http/exact-json';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeIn } from '../../plugins/dashboard/actor';
import { limit, pageOf, settlementId, withMode } from '../schemas';
import { SETTLEMENT_SCHEMAS, missingSummary, presentSettlement } from './presenters';

/** *mode*: the account's settlements, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/settlements',
  access: 'dashboard',
  action: 'settlements.read',
  validate: { query: withMode({ limit, starting_after: settlementId }) },
  openapi: {
    operationId: 'listSettlements',
    summary: 'List settlements, newest first',
    description: '`limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Settlements',
    success: { status: 200, schema: SETTLEMENT_SCHEMAS.SettlementList, description: 'A page of settlements.' },
  },
  uses: { listSettlements: ListSettlements, summarize: SummarizeSettlements },
  handler:
    ({ listSettlements, summarize }) =>
    async (request, h) => {
      const { query } = request;
      const page = await listSettlements.execute({ scope: scopeIn(request, query.mode), page: pageOf(query) });
      const summaries = await summarize.execute(page.data);
      return exactResponse(
        h,
        presentList(page, (settlement) => presentSettlement(settlement, summaries.get(settlement.id) ?? missingSummary(settlement.id))),
      );
    },
});
