import { CreateRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { jsonBody, metadata, refundFields } from '../schemas';
import { REFUND_CREATE_RULES, REFUND_PENDING_EXAMPLE, REFUND_SCHEMAS, presentRefund } from './presenter';

const refundCreateBody = jsonBody({ ...refundFields, metadata });

export default defineRoute({
  method: 'POST',
  path: '/v1/refunds',
  access: 'api-key',
  permission: 'refunds:write',
  // The channel is called between two transactions (see CreateRefund): the first binds the refund
  // to the key, and a retry resumes with it.
  idempotent: { transactional: false, resumes: 'refund' },
  validate: { payload: refundCreateBody },
  openapi: {
    operationId: 'createRefund',
    summary: 'Refund a paid payment intent, in whole or in part',
    description:
      `${REFUND_CREATE_RULES} An intent of another merchant or mode is 404 \`resource_not_found\`. The channel is called before the answer: a channel that ` +
      'declines fails the refund at once (201 with `status: failed`), one that cannot be reached leaves it pending until the channel reports.',
    tag: 'Refunds',
    success: {
      status: 201,
      schema: REFUND_SCHEMAS.Refund,
      description: 'The refund, pending until the channel reports (failed at once when the channel declines it).',
      example: REFUND_PENDING_EXAMPLE,
    },
    requestBody: {
      name: 'RefundCreateParams',
      example: { payment_intent: 'pi_wRuAd6OgjF8fafigzwZwk6WP', amount: 5000, reason: 'requested_by_customer', metadata: { ticket: 'T-2209' } },
    },
    errors: { 404: ['resource_not_found'], 409: ['invalid_state_transition', 'payment_disputed', 'refund_exceeds_remaining'] },
  },
  uses: { createRefund: CreateRefund },
  handler:
    ({ createRefund }) =>
    async (request, _h, recovery) => {
      const body = request.payload;
      const refund = await createRefund.execute({
        scope: scopeOf(request),
        paymentIntentId: body.payment_intent,
        amount: body.amount,
        reason: body.reason,
        metadata: body.metadata,
        recovery,
      });
      return { status: 201, body: presentRefund(refund) };
    },
});
