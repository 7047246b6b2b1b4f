import type { AuditActor, AuditRecorder } from '../../dashboard';
import type { PaymentChannelRegistry } from '../../payments';
import type { AccountScope, Recovery } from '../../common';
import { CoreError, invalidParameter, notFound } from '../../common';
import { publishEvent } from '../../webhooks';
import { isRuled, type Dispute, type DisputeEvidence } from '../domain/dispute.entity';
import { DISPUTE_EVIDENCE_LIMITS, disputeEvent } from './dispute-events';
import type { DisputeWriteDeps } from './record-dispute-report.use-case';

export function disputeClosed(id: string): CoreError {
  return new CoreError('dispute_closed', 'conflict', `Dispute ${id} has been ruled on and accepts no more evidence.`);
}

export interface SubmitDisputeEvidenceInput {
  readonly scope: AccountScope;
  readonly disputeId: string;
  readonly evidence: DisputeEvidence;
  /** A dashboard user submitting: audited with the stored change (`disputes.write`, the keys only: values may be personal). */
  readonly actor?: AuditActor;
  /** The request's recovery point: the dispute is bound to its key where the evidence is stored, and a retry answers it. */
  readonly recovery?: Recovery;
}
export type SubmitDisputeEvidenceDeps = DisputeWriteDeps & {
  readonly channels: PaymentChannelRegistry;
  readonly audit: AuditRecorder;
};

/**
 * `POST /v1/disputes/{id}/evidence`: merges the evidence key by key into what the dispute holds,
 * forwards the merged set to the channel, then stores it; `opened` becomes `under_review` and
 * `dispute.updated` is published. The channel is called first and with no transaction open: a
 * channel failure stores nothing, and since the channel receives the whole merged set, a retry
 * under the same Idempotency-Key sends it again harmlessly. The transaction that stores it binds
 * the dispute to the key (its recovery point): a retry after that commit (the answer was not
 * stored) answers the dispute as it stands, without sending or publishing it again.
 */
export class SubmitDisputeEvidence {
  constructor(private readonly deps: SubmitDisputeEvidenceDeps) {}

  async execute(input: SubmitDisputeEvidenceInput): Promise<Dispute> {
    const { deps } = this;
    if (input.recovery?.resume !== undefined) {
      const stored = await deps.disputes.findById(input.scope, input.recovery.resume);
      if (!stored) throw notFound('dispute', input.recovery.resume);
      return stored;
    }
    const before = await deps.disputes.findById(input.scope, input.disputeId);
    if (!before) throw notFound('dispute', input.disputeId);
    if (isRuled(before)) throw disputeClosed(before.id);
    const merged = mergeEvidence(before.evidence, input.evidence);

    const channel = this.deps.channels.find(before.channel);
    if (!channel?.submitDisputeEvidence) {
      throw new CoreError('channel_error', 'unavailable', 'The channel of this dispute does not take evidence right now; retry later.', {
        retryAfterSeconds: 60,
      });
    }
    await channel.submitDisputeEvidence(before.mode, before.channelDisputeId, merged);

    return deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const dispute = await self.deps.disputes.findByIdForUpdate(input.scope, input.disputeId);
      if (!dispute) throw notFound('dispute', input.disputeId);
      // A ruling may have landed while the channel was being called.
      if (isRuled(dispute)) throw disputeClosed(dispute.id);
      const now = self.deps.clock.now();
      const changed: Dispute = {
        ...dispute,
        evidence: mergeEvidence(dispute.evidence, input.evidence),
        status: dispute.status === 'opened' ? 'under_review' : dispute.status,
        updated: now,
      };
      await self.deps.disputes.update(changed);
      await input.recovery?.bind(changed.id, transaction);
      await publishEvent(self.deps, disputeEvent(changed, 'dispute.updated', self.deps.random, now), now);
      if (input.actor) {
        await self.deps.audit.recordAction(
          input.actor,
          'disputes.write',
          { type: 'dispute', id: changed.id },
          { change: 'evidence', mode: changed.mode, keys: Object.keys(input.evidence).join(',') },
        );
      }
      return changed;
    });
  }
}

/** `current` with `update`'s keys laid over it; at most `DISPUTE_EVIDENCE_LIMITS.keys` keys in all. */
export function mergeEvidence(current: DisputeEvidence, update: DisputeEvidence): DisputeEvidence {
  // fromEntries defines own properties, so a key such as `__proto__` is kept as data.
  const merged: DisputeEvidence = Object.fromEntries([...Object.entries(current), ...Object.entries(update)]);
  if (Object.keys(merged).length > DISPUTE_EVIDENCE_LIMITS.keys) {
    throw invalidParameter('evidence', `A dispute holds at most ${DISPUTE_EVIDENCE_LIMITS.keys} evidence keys in all.`);
  }
  return merged;
}
