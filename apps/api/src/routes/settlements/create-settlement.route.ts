import { CreateManualSettlement } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../plugins/merchant-v1/idempotency';
import { noBody } from '../schemas';
import { presentSettlement } from './presenters';

export default defineRoute({
  method: 'POST',
  path: '/v1/settlements',
  access: 'api-key',
  // Not one transaction: creation runs under the settlement lock, which must outlive its
  // transaction, and a test-mode settlement is paid at once through the payout gateway.
  idempotent: { transactional: false },
  validate: { payload: noBody },
  openapi: {
    operationId: 'createSettlement',
    summary: 'Ask for a settlement now (merchants on the manual schedule)',
    tag: 'Settlements',
    success: { status: 201, schema: 'Settlement', description: 'The settlement.' },
    errors: POST_ERRORS,
  },
  uses: { createManualSettlement: CreateManualSettlement },
  handler:
    ({ createManualSettlement }) =>
    async (request) => ({
      status: 201,
      body: presentSettlement(await createManualSettlement.execute({ scope: scopeOf(request), requestKey: idempotencyKeyOf(request) })),
    }),
});
