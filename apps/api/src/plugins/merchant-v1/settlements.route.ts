import type { ServerRoute } from '@hapi/hapi';
import { ID_PATTERNS, type CreateManualSettlement, type GetSettlement, type ListSettlements, type Settlement } from '@payments/core';
import Joi from 'joi';
import { header } from '../../http/headers';
import { compact } from '../../http/presenting';
import { idempotent, type IdempotentDeps } from './idempotency';
import { scopeOf } from './caller';
import { presentList, timestamp } from './presenters';
import { limit, noBody } from './schemas';

export interface SettlementRoutesDeps extends IdempotentDeps {
  readonly createManualSettlement: CreateManualSettlement;
  readonly listSettlements: ListSettlements;
  readonly getSettlement: GetSettlement;
}

const settlementId = Joi.string().max(64).pattern(ID_PATTERNS.settlement, 'settlement id');
const settlementListQuery = Joi.object({ limit, starting_after: settlementId });
const settlementParams = Joi.object({ id: settlementId.required() });

/** Settlement as the API shows it (schema Settlement in docs/openapi.json): no destination or failure details. */
export function presentSettlement(settlement: Settlement): Record<string, unknown> {
  return compact({
    id: settlement.id,
    object: 'settlement',
    mode: settlement.mode,
    status: settlement.status,
    amount: { amount: settlement.amount.amount, currency: settlement.amount.currency },
    payments: settlement.payments,
    period_start: timestamp(settlement.periodStart),
    period_end: timestamp(settlement.periodEnd),
    created: timestamp(settlement.created),
  });
}

export function settlementRoutes(deps: SettlementRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/settlements',
      options: {
        validate: { payload: noBody },
        // Not one transaction: creation runs under the settlement lock, which must outlive its
        // transaction, and a test-mode settlement is paid at once through the payout gateway.
        handler: idempotent(
          deps,
          async (request) => ({ status: 201, body: presentSettlement(await deps.createManualSettlement.execute({ scope: scopeOf(request), requestKey: header(request, 'idempotency-key') })) }),
          { transactional: false },
        ),
      },
    },
    {
      method: 'GET',
      path: '/v1/settlements',
      options: {
        validate: { query: settlementListQuery },
        handler: async (request) => {
          const query = request.query as { limit: number; starting_after?: string };
          const page = await deps.listSettlements.execute({ scope: scopeOf(request), page: { limit: query.limit, startingAfter: query.starting_after } });
          return presentList(page, presentSettlement);
        },
      },
    },
    {
      method: 'GET',
      path: '/v1/settlements/{id}',
      options: {
        validate: { params: settlementParams },
        handler: async (request) => presentSettlement(await deps.getSettlement.execute({ scope: scopeOf(request), id: String(request.params.id) })),
      },
    },
  ];
}
