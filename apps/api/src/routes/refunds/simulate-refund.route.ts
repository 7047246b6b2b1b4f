import { REFUND_FAILURE_CODES, SimulateRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idempotencyKeyOf } from '../../http/idempotency';
import { jsonBody, refundParams } from '../schemas';
import { REFUND_SCHEMAS, presentRefund } from './presenter';

const simulateRefundBody = jsonBody({
  outcome: required(oneOf(['succeeded', 'failed'] as const)).description('What the channel reports: the money returned, or not.'),
  failure_code: oneOf(REFUND_FAILURE_CODES).description('With `failed` only: why (default `channel_declined`).'),
});

/** Test mode: tell the channel what to report for a pending refund. */
export default defineRoute({
  method: 'POST',
  path: '/v1/test/refunds/{id}/simulate',
  access: 'api-key',
  permission: 'refunds:write',
  // The simulated notice reaches the service over HTTP while this request waits. Nothing is
  // written before the call: the channel remembers the key with what it was told (`simulationKey`),
  // so a retry whose first try took effect is answered, not refused.
  idempotent: { transactional: false, resumes: 'channel' },
  validate: { params: refundParams, payload: simulateRefundBody },
  openapi: {
    operationId: 'simulateRefund',
    summary: 'Test mode: tell the channel what to report for a pending refund, and wait for its notice',
    description:
      'Test keys only (a live key is 403 `test_mode_required`). Settles a pending refund at once through the channel’s signed notice, which takes the real path; ' +
      'the answer is the refund as that notice left it. A refund already succeeded or failed, or one the channel has not taken yet, is 409 ' +
      '`invalid_state_transition`; a channel that cannot simulate is 409 `simulation_unsupported`. `failure_code` goes with `failed` only (400).',
    tag: 'Test helpers',
    success: { status: 200, schema: REFUND_SCHEMAS.Refund, description: "The refund as the channel's report left it." },
    requestBody: { name: 'RefundSimulateParams', example: { outcome: 'succeeded' } },
    errors: {
      403: ['test_mode_required'],
      404: ['resource_not_found'],
      409: ['invalid_state_transition', 'simulation_unsupported'],
      503: ['channel_error'],
    },
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
