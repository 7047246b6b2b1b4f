import { DISPUTE_EVIDENCE_LIMITS, SubmitDisputeEvidence } from '@payments/core';
import Joi from 'joi';
import { defineRoute } from '../../http/define-route';
import { required } from '../../http/typed-schema';
import { POST_ERRORS } from '../../openapi/build-openapi';
import { scopeOf } from '../../plugins/merchant-v1/caller';
import { disputeParams, jsonBody } from '../schemas';
import { presentDispute } from './presenter';

/** Evidence is a flat map of strings, bounded like metadata so one dispute stays small. */
const disputeEvidenceBody = jsonBody({
  evidence: required(
    Joi.object<Record<string, string>>()
      .min(1)
      .max(DISPUTE_EVIDENCE_LIMITS.keys)
      .pattern(Joi.string().min(1).max(DISPUTE_EVIDENCE_LIMITS.keyLength), Joi.string().allow('').max(DISPUTE_EVIDENCE_LIMITS.valueLength)),
  ),
});

export default defineRoute({
  method: 'POST',
  path: '/v1/disputes/{id}/evidence',
  access: 'api-key',
  // The evidence goes to the channel before it is stored; no transaction is held across that call.
  idempotent: { transactional: false },
  validate: { params: disputeParams, payload: disputeEvidenceBody },
  openapi: {
    operationId: 'submitDisputeEvidence',
    summary: 'Submit evidence, merged key by key into what the dispute holds',
    tag: 'Disputes',
    success: { status: 200, schema: 'Dispute', description: 'The dispute.' },
    requestBody: 'DisputeEvidenceParams',
    errors: [404, ...POST_ERRORS],
  },
  uses: { submitDisputeEvidence: SubmitDisputeEvidence },
  handler:
    ({ submitDisputeEvidence }) =>
    async (request) => {
      const dispute = await submitDisputeEvidence.execute({ scope: scopeOf(request), disputeId: request.params.id, evidence: request.payload.evidence });
      return { status: 200, body: presentDispute(dispute) };
    },
});
