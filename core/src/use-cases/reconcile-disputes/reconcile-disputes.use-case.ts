import type { Dispute } from '../../domain/dispute.entity';
import type { Clock } from '../../ports/clock.port';
import type { DisputeRepository } from '../../ports/dispute.repository.port';
import type { PaymentAttemptRepository } from '../../ports/payment-attempt.repository.port';
import type { ChannelDisputeStatus, PaymentChannelRegistry } from '../../ports/payment-channel.port';
import type { RecordDisputeReport } from '../record-dispute-report/record-dispute-report.use-case';

export interface DisputeReconcileRules {
  /**
   * How long an open dispute may go without news before its channel is asked about it, and how
   * long after each ask it is asked again while it stays open.
   */
  readonly staleAfterMs: number;
}

/**
 * The dispute reconciler: open disputes that heard nothing for a while are put to the channel's
 * dispute query, and what it answers goes through `RecordDisputeReport` like a notice would, so a
 * ruling whose notice was lost is still applied, once (its postings are idempotent on their cause).
 */
export class ReconcileDisputes {
  constructor(
    private readonly disputes: DisputeRepository,
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
    private readonly recordDisputeReport: RecordDisputeReport,
    private readonly clock: Clock,
    private readonly rules: DisputeReconcileRules,
  ) {}

  /** Asks about up to `limit` due disputes, oldest news first; returns how many changed. */
  async execute(input: { limit: number }): Promise<number> {
    const now = this.clock.now();
    const due = await this.disputes.findDueForCheck({ updatedBefore: new Date(now.getTime() - this.rules.staleAfterMs), now, limit: input.limit });
    let changed = 0;
    // As for attempts: a channel that fails once is not asked again this pass.
    const unreachable = new Set<string>();
    for (const dispute of due) {
      // Scheduled before asking, whatever comes of it, so a dispute that stays open (or a channel
      // that is down) cannot hold the head of every batch and starve the disputes behind it.
      await this.disputes.setNextCheck(dispute.id, new Date(now.getTime() + this.rules.staleAfterMs));
      const channel = this.channels.find(dispute.channel);
      if (!channel?.queryDispute || unreachable.has(dispute.channel)) continue;
      const report = await channel.queryDispute(dispute.mode, dispute.channelDisputeId).catch(() => {
        unreachable.add(dispute.channel);
        return undefined;
      });
      if (!report || report.status === dispute.status) continue;
      if (await this.apply(dispute, report)) changed += 1;
    }
    return changed;
  }

  /**
   * Records the channel's answer when it is about this dispute and one of our attempts on its
   * intent; an answer that cannot be recorded now (a concurrent change) is asked again later.
   */
  private async apply(dispute: Dispute, report: ChannelDisputeStatus): Promise<boolean> {
    if (report.channelDisputeId !== dispute.channelDisputeId) return false;
    const attempt = await this.attempts.findByReference(report.reference);
    const ours =
      attempt !== undefined &&
      attempt.channel === dispute.channel &&
      attempt.merchantId === dispute.merchantId &&
      attempt.mode === dispute.mode &&
      attempt.paymentIntentId === dispute.paymentIntentId &&
      attempt.channelOrderId === report.channelOrderId;
    if (!ours) return false;
    return this.recordDisputeReport.execute({ attempt, report }).then(
      (recorded) => recorded.status !== dispute.status,
      () => false,
    );
  }
}
