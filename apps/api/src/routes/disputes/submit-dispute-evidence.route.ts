import { SubmitDisputeEvidence } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeEvidenceBody, disputeParams } from '../schemas';
import { DISPUTE_SCHEMAS, presentDispute } from './presenter';

export default defineRoute({
  method: 'POST',
  path: '/v1/disputes/{id}/evidence',
  access: 'api-key',
  permission: 'disputes:write',
  // The evidence goes to the channel before it is stored; no transaction is held across that call.
  // The transaction that stores it binds the dispute to the key: a retry answers it as it stands.
  idempotent: { transactional: false, resumes: 'dispute' },
  validate: { params: disputeParams, payload: disputeEvidenceBody },
  openapi: {
    operationId: 'submitDisputeEvidence',
    summary: 'Submit evidence, merged key by key into what the dispute holds',
    description:
      'Merges the keys sent into the dispute’s evidence (a key sent again replaces its value) and sends the whole merged set to the channel before storing it; ' +
      'an opened dispute moves to `under_review` and `dispute.updated` is published. A ruled dispute (won or lost) is 409 `dispute_closed`. More than 50 keys in all ' +
      'is 400 naming `evidence`. A channel that cannot take it stores nothing: 503 `channel_error`, and a retry with the same Idempotency-Key is safe.',
    tag: 'Disputes',
    success: { status: 200, schema: DISPUTE_SCHEMAS.Dispute, description: 'The dispute, with the merged evidence.' },
    requestBody: {
      name: 'DisputeEvidenceParams',
      example: { evidence: { tracking_number: 'TH1234567890', receipt: 'https://shop.example.com/receipts/1001' } },
    },
    errors: { 404: ['resource_not_found'], 409: ['dispute_closed'], 503: ['channel_error'] },
  },
  uses: { submitDisputeEvidence: SubmitDisputeEvidence },
  handler:
    ({ submitDisputeEvidence }) =>
    async (request, _h, recovery) => {
      const dispute = await submitDisputeEvidence.execute({
        scope: scopeOf(request),
        disputeId: request.params.id,
        evidence: request.payload.evidence,
        recovery,
      });
      return { status: 200, body: presentDispute(dispute) };
    },
});
