import { CreateRefund, ID_PATTERNS, MAX_AMOUNT, REFUND_REASONS } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { oneOf, required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { idOf, jsonBody, metadata } from '../schemas';
import { presentRefund } from './presenter';

const refundCreateBody = jsonBody({
  payment_intent: required(idOf(ID_PATTERNS.payment_intent, 'payment intent id')),
  amount: Joi.number().integer().min(1).max(MAX_AMOUNT).description("Minor units of the intent's currency; left out, the whole amount not refunded yet."),
  reason: oneOf(REFUND_REASONS),
  metadata,
});

export default defineRoute({
  method: 'POST',
  path: '/v1/refunds',
  access: 'api-key',
  // The channel is called between two transactions, as for attempts (see CreateRefund).
  idempotent: { transactional: false },
  validate: { payload: refundCreateBody },
  openapi: {
    operationId: 'createRefund',
    summary: 'Refund a paid payment intent, in whole or in part',
    description:
      'Only a succeeded or channel_settled intent can be refunded (else 409 invalid_state_transition); an open dispute is 409 payment_disputed; ' +
      'the refunds that did not fail never add up to more than the intent amount (409 refund_exceeds_remaining, also after a lost dispute). ' +
      'The merchant is debited amount × net / intent amount in the settlement currency at once; a failed refund gives it back.',
    tag: 'Refunds',
    success: { status: 201, schema: 'Refund', description: 'The refund, pending until the channel reports (failed at once when the channel declines it).' },
    requestBody: 'RefundCreateParams',
    errors: [404, ...POST_ERRORS],
  },
  uses: { createRefund: CreateRefund },
  handler:
    ({ createRefund }) =>
    async (request) => {
      const body = request.payload;
      const refund = await createRefund.execute({
        scope: scopeOf(request),
        paymentIntentId: body.payment_intent,
        amount: body.amount,
        reason: body.reason,
        metadata: body.metadata,
      });
      return { status: 201, body: presentRefund(refund) };
    },
});
