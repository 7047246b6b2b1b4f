import type { ServerRoute } from '@hapi/hapi';
import {
  DISPUTE_EVIDENCE_LIMITS,
  DISPUTE_STATUSES,
  ID_PATTERNS,
  type Dispute,
  type DisputeEvidence,
  type DisputeStatus,
  type GetDispute,
  type ListDisputes,
  type SubmitDisputeEvidence,
} from '@payments/core';
import Joi from 'joi';
import { compact, presentList, timestamp } from '../../http/presenting';
import { idempotent, type IdempotentDeps } from './idempotency';
import { scopeOf } from './caller';
import { limit } from './schemas';

export interface DisputeRoutesDeps extends IdempotentDeps {
  readonly listDisputes: ListDisputes;
  readonly getDispute: GetDispute;
  readonly submitDisputeEvidence: SubmitDisputeEvidence;
}

const disputeId = Joi.string().max(64).pattern(ID_PATTERNS.dispute, 'dispute id');

export const disputeParams = Joi.object({ id: disputeId.required() });

export const disputeListQuery = Joi.object({
  limit,
  starting_after: disputeId,
  status: Joi.string().valid(...DISPUTE_STATUSES),
});

/** Evidence is a flat map of strings, bounded like metadata so one dispute stays small. */
export const disputeEvidenceBody = Joi.object({
  evidence: Joi.object()
    .min(1)
    .max(DISPUTE_EVIDENCE_LIMITS.keys)
    .pattern(Joi.string().min(1).max(DISPUTE_EVIDENCE_LIMITS.keyLength), Joi.string().allow('').max(DISPUTE_EVIDENCE_LIMITS.valueLength))
    .required(),
})
  .required()
  .prefs({ convert: false });

/** Dispute as the API shows it (schema Dispute in docs/openapi.json). The channel and its own id for it stay inside. */
export function presentDispute(dispute: Dispute): Record<string, unknown> {
  return compact({
    id: dispute.id,
    object: 'dispute',
    mode: dispute.mode,
    payment_intent: dispute.paymentIntentId,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    held: dispute.held && { amount: dispute.held.amount, currency: dispute.held.currency },
    fee: dispute.fee && { amount: dispute.fee.amount, currency: dispute.fee.currency },
    reason: dispute.reason,
    evidence: { ...dispute.evidence },
    due_by: timestamp(dispute.dueBy),
    opened_at: timestamp(dispute.openedAt),
    closed_at: dispute.closedAt && timestamp(dispute.closedAt),
    created: timestamp(dispute.created),
  });
}

export function disputeRoutes(deps: DisputeRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/disputes',
      options: {
        validate: { query: disputeListQuery },
        handler: async (request) => {
          const query = request.query as { limit: number; starting_after?: string; status?: DisputeStatus };
          const page = await deps.listDisputes.execute({
            scope: scopeOf(request),
            filter: { status: query.status },
            page: { limit: query.limit, startingAfter: query.starting_after },
          });
          return presentList(page, presentDispute);
        },
      },
    },
    {
      method: 'GET',
      path: '/v1/disputes/{id}',
      options: {
        validate: { params: disputeParams },
        handler: async (request) => presentDispute(await deps.getDispute.execute({ scope: scopeOf(request), id: String(request.params.id) })),
      },
    },
    {
      method: 'POST',
      path: '/v1/disputes/{id}/evidence',
      options: {
        validate: { params: disputeParams, payload: disputeEvidenceBody },
        handler: idempotent(
          deps,
          async (request) => {
            const body = request.payload as { evidence: DisputeEvidence };
            const dispute = await deps.submitDisputeEvidence.execute({ scope: scopeOf(request), disputeId: String(request.params.id), evidence: body.evidence });
            return { status: 200, body: presentDispute(dispute) };
          },
          // The evidence goes to the channel before it is stored; no transaction is held across that call.
          { transactional: false },
        ),
      },
    },
  ];
}
