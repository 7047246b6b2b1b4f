import { API_CALLER, CreateManualSettlement, SummarizeSettlements } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../http/idempotency';
import { noBody } from '../schemas';
import { SETTLEMENT_SCHEMAS, presentSettlement } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/v1/settlements',
  access: 'api-key',
  permission: 'settlements:write',
  // Not one transaction: creation runs under the settlement lock, which must outlive its
  // transaction, and a test-mode settlement is paid at once through the payout gateway.
  // The settlement keeps the request's key: a retry is answered with it.
  idempotent: { transactional: false, resumes: 'settlement' },
  validate: { payload: noBody },
  openapi: {
    operationId: 'createSettlement',
    summary: 'Ask for a settlement now (merchants on the manual schedule)',
    description:
      'Takes no body (or `{}`). For an account on the `manual` schedule only (any other is 403 `forbidden`): pays every movement of the available balance no settlement covered yet ' +
      '(the released payments not settled yet, refunds, dispute debits, failed payouts returned), except the money of the released payments beyond what one settlement can carry (2^53 − 1), which wait for the next request; ' +
      'the balance’s `next_settlement` shows the amount beforehand. When that is zero or below: 409 `nothing_to_settle` when no payment waits, else 409 `insufficient_available_balance`. ' +
      'Requests of one account and mode run one at a time: of several racing for the same funds one is 201, the rest 409. ' +
      'In test mode the settlement is paid at once (the answer reads `paid`); in live mode it answers `pending` and the worker pays it. ' +
      'A retry with the same Idempotency-Key is answered with the same settlement for 24 hours.',
    tag: 'Settlements',
    success: { status: 201, schema: SETTLEMENT_SCHEMAS.Settlement, description: 'The settlement.' },
    errors: { 403: ['forbidden'], 409: ['nothing_to_settle', 'insufficient_available_balance', 'settlement_conflict'] },
  },
  uses: { createManualSettlement: CreateManualSettlement, summarize: SummarizeSettlements },
  handler:
    ({ createManualSettlement, summarize }) =>
    async (request) => {
      const settlement = await createManualSettlement.execute({ scope: scopeOf(request), requestKey: { caller: API_CALLER, key: idempotencyKeyOf(request) } });
      return { status: 201, body: presentSettlement(settlement, await summarize.one(settlement)) };
    },
});
