import { CreateRefund } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf, scopeIn } from '../../plugins/dashboard/actor';
import { jsonBody, modeQuery, refundFields } from '../schemas';
import { REFUND_CREATE_RULES, REFUND_SCHEMAS, presentRefund } from './presenter';

/** *mode*: a refund, as POST /v1/refunds makes it; owner and admin, once per Idempotency-Key. */
export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/refunds',
  access: 'dashboard',
  action: 'refunds.write',
  // The channel is called between two transactions (see CreateRefund): the first binds the refund
  // to the key, and a retry resumes with it.
  idempotent: { transactional: false, resumes: 'refund' },
  validate: { query: modeQuery, payload: jsonBody(refundFields) },
  openapi: {
    operationId: 'createRefund',
    summary: 'Refund a paid payment intent, in whole or in part',
    description: `The rules and errors of POST /v1/refunds. ${REFUND_CREATE_RULES} An intent of another merchant or of the other mode is 404. Audited as refunds.write.`,
    tag: 'Refunds',
    success: {
      status: 201,
      schema: REFUND_SCHEMAS.Refund,
      description: 'The refund, pending until the channel reports (failed at once when the channel declines it).',
    },
    errors: [404, 409],
  },
  uses: { createRefund: CreateRefund },
  handler:
    ({ createRefund }) =>
    async (request, _h, recovery) => {
      const body = request.payload;
      const refund = await createRefund.execute({
        scope: scopeIn(request, request.query.mode),
        paymentIntentId: body.payment_intent,
        amount: body.amount,
        reason: body.reason,
        actor: actorOf(request).user,
        recovery,
      });
      return { status: 201, body: presentRefund(refund) };
    },
});
