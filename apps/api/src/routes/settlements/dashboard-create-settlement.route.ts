import { CreateManualSettlement, dashboardCaller, SummarizeSettlements } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { idempotencyKeyOf } from '../../http/idempotency';
import { actorOf, scopeIn } from '../../plugins/dashboard/actor';
import { modeQuery, noBody } from '../schemas';
import { SETTLEMENT_SCHEMAS, presentSettlement } from './presenters';

/** *mode*: "pay out now", as POST /v1/settlements; owner and admin, once per Idempotency-Key. */
export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/settlements',
  access: 'dashboard',
  action: 'settlements.write',
  // As on /v1: creation runs under the settlement lock, which must outlive its transaction, and a
  // test-mode settlement is paid at once through the payout gateway.
  // The settlement keeps the request's key: a retry is answered with it.
  idempotent: { transactional: false, resumes: 'settlement' },
  validate: { query: modeQuery, payload: noBody },
  openapi: {
    operationId: 'createSettlement',
    summary: 'Pay out now: settle what is available (accounts on the manual schedule)',
    description:
      'The rules of POST /v1/settlements: an account on a daily, weekly or monthly schedule is 403 forbidden; it pays what the balance’s `next_settlement` shows ' +
      '(every movement of the available balance no settlement covered yet); when that is zero or below, 409 nothing_to_settle (no payment waits) or insufficient_available_balance. A test-mode settlement is paid at once. The body is empty or `{}`. ' +
      'Audited as settlements.write.',
    tag: 'Settlements',
    success: { status: 201, schema: SETTLEMENT_SCHEMAS.Settlement, description: 'The settlement.' },
  },
  uses: { createManualSettlement: CreateManualSettlement, summarize: SummarizeSettlements },
  handler:
    ({ createManualSettlement, summarize }) =>
    async (request) => {
      const { user } = actorOf(request);
      const settlement = await createManualSettlement.execute({
        scope: scopeIn(request, request.query.mode),
        requestKey: { caller: dashboardCaller(user.id), key: idempotencyKeyOf(request) },
        actor: user,
      });
      return { status: 201, body: presentSettlement(settlement, await summarize.one(settlement)) };
    },
});
