import { SubmitDisputeEvidence } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { actorOf, scopeIn } from '../../plugins/dashboard/actor';
import { disputeEvidenceBody, disputeParams, modeQuery } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

/** *mode*: evidence for a dispute, as POST /v1/disputes/{id}/evidence takes it; owner and admin, once per Idempotency-Key. */
export default defineRoute({
  method: 'POST',
  path: '/dashboard/v1/disputes/{id}/evidence',
  access: 'dashboard',
  action: 'disputes.write',
  // The evidence goes to the channel before it is stored; no transaction is held across that call.
  // The transaction that stores it binds the dispute to the key: a retry answers it as it stands.
  idempotent: { transactional: false, resumes: 'dispute' },
  validate: { params: disputeParams, query: modeQuery, payload: disputeEvidenceBody },
  openapi: {
    operationId: 'submitDisputeEvidence',
    summary: 'Submit evidence, merged key by key into what the dispute holds',
    description:
      'The rules of POST /v1/disputes/{id}/evidence: `evidence` is a map of strings (at most 50 keys in all); a ruled dispute is 409 dispute_closed; ' +
      'an opened dispute becomes under_review. Audited as disputes.write (the keys, not the values). A dispute of another merchant or of the other mode is 404.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.Dispute, description: 'The dispute.' },
    errors: [404, 409],
  },
  uses: { submitDisputeEvidence: SubmitDisputeEvidence },
  handler:
    ({ submitDisputeEvidence }) =>
    async (request, _h, recovery) => {
      const dispute = await submitDisputeEvidence.execute({
        scope: scopeIn(request, request.query.mode),
        disputeId: request.params.id,
        evidence: request.payload.evidence,
        actor: actorOf(request).user,
        recovery,
      });
      return { status: 200, body: presentDispute(dispute) };
    },
});
