import { REFUND_FAILURE_CODES, SimulateRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../plugins/merchant-v1/idempotency';
import { jsonBody, refundParams } from '../schemas';
import { presentRefund } from './presenter';

const simulateRefundBody = jsonBody({
  outcome: required(oneOf(['succeeded', 'failed'] as const)),
  failure_code: oneOf(REFUND_FAILURE_CODES),
});

/** Test mode: tell the channel what to report for a pending refund. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/refunds/{id}/simulate',
  access: 'api-key',
  // The simulated notice reaches the service over HTTP while this request waits.
  idempotent: { transactional: false },
  validate: { params: refundParams, payload: simulateRefundBody },
  openapi: {
    operationId: 'simulateRefund',
    summary: 'Test mode: tell the channel what to report for a pending refund, and wait for its notice',
    tag: 'Test helpers',
    success: { status: 200, schema: 'Refund', description: "The refund as the channel's report left it." },
    requestBody: 'RefundSimulateParams',
    errors: [404, ...POST_ERRORS],
  },
  uses: { simulateRefund: SimulateRefund },
  handler:
    ({ simulateRefund }) =>
    async (request) => {
      const refund = await simulateRefund.execute({
        scope: scopeOf(request),
        id: request.params.id,
        outcome: request.payload.outcome,
        failureCode: request.payload.failure_code,
        simulationKey: idempotencyKeyOf(request),
      });
      return { status: 200, body: presentRefund(refund) };
    },
});
