import { ListSettlements } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { objectSchema } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { limit, settlementId } from '../schemas';
import { presentSettlement } from './presenters';

export default defineRoute({
  method: 'GET',
  path: '/v1/settlements',
  access: 'api-key',
  validate: { query: objectSchema({ limit, starting_after: settlementId }) },
  openapi: {
    operationId: 'listSettlements',
    summary: 'List settlements, newest first',
    tag: 'Settlements',
    success: { status: 200, schema: 'SettlementList', description: 'A page of settlements.' },
  },
  uses: { listSettlements: ListSettlements },
  handler:
    ({ listSettlements }) =>
    async (request) => {
      const page = await listSettlements.execute({
        scope: scopeOf(request),
        page: { limit: request.query.limit, startingAfter: request.query.starting_after },
      });
      return presentList(page, presentSettlement);
    },
});
