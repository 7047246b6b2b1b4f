import type { ItemJob, JobPass } from '../../jobs';
import type { ChannelDisputeStatus, PaymentAttemptRepository, PaymentChannelRegistry } from '../../payments';
import type { Clock } from '../../common';
import { MODES, type Mode } from '../../common';
import type { Dispute } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';
import type { RecordDisputeReport } from './record-dispute-report.use-case';

export interface DisputeReconcileRules {
  /**
   * How long an open dispute may go without news before its channel is asked about it, and how
   * long after each ask it is asked again while it stays open.
   */
  readonly staleAfterMs: number;
}
export interface ReconcileDisputesDeps {
  readonly disputes: DisputeRepository;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
  readonly recordDisputeReport: RecordDisputeReport;
  readonly clock: Clock;
  readonly rules: DisputeReconcileRules;
}

/**
 * The dispute reconciler: open disputes that heard nothing for a while are put to the channel's
 * dispute query, and what it answers goes through `RecordDisputeReport` like a notice would, so a
 * ruling whose notice was lost is still applied, once (its postings are idempotent on their cause).
 */
export class ReconcileDisputes implements ItemJob<Dispute> {
  constructor(private readonly deps: ReconcileDisputesDeps) {}

  readonly name = 'reconcile-disputes';
  readonly lanes = MODES;

  /** Open disputes of a mode that heard nothing for a while, oldest news first. */
  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<Dispute[]> {
    const now = this.deps.clock.now();
    return this.deps.disputes.findDueForCheck({
      mode,
      updatedBefore: new Date(now.getTime() - this.deps.rules.staleAfterMs),
      now,
      limit: limit + deferred.size,
    });
  }

  idOf(dispute: Dispute): string {
    return dispute.id;
  }

  /** Asks the channel about one dispute; true when its status changed. */
  async handle(dispute: Dispute, pass: JobPass): Promise<boolean> {
    // Scheduled before asking, whatever comes of it, so a dispute that stays open (or a channel
    // that is down) cannot hold the head of every batch and starve the disputes behind it.
    await this.deps.disputes.setNextCheck(dispute.id, new Date(this.deps.clock.now().getTime() + this.deps.rules.staleAfterMs));
    const channel = this.deps.channels.find(dispute.channel);
    // As for attempts: a channel that fails once is not asked again this pass.
    if (!channel?.queryDispute || pass.isDown(dispute.channel)) return false;
    const report = await channel.queryDispute(dispute.mode, dispute.channelDisputeId).catch(() => {
      pass.markDown(dispute.channel);
      return undefined;
    });
    if (!report || report.status === dispute.status) return false;
    return this.apply(dispute, report);
  }

  /**
   * Records the channel's answer when it is about this dispute and one of our attempts on its
   * intent.
   */
  private async apply(dispute: Dispute, report: ChannelDisputeStatus): Promise<boolean> {
    if (report.channelDisputeId !== dispute.channelDisputeId) return false;
    const attempt = await this.deps.attempts.findByReference(report.reference);
    const ours =
      attempt !== undefined &&
      attempt.channel === dispute.channel &&
      attempt.merchantId === dispute.merchantId &&
      attempt.mode === dispute.mode &&
      attempt.paymentIntentId === dispute.paymentIntentId &&
      attempt.channelOrderId === report.channelOrderId;
    if (!ours) return false;
    // A report that cannot be recorded fails the item: recorded, and asked again after its backoff.
    const recorded = await this.deps.recordDisputeReport.execute({ attempt, report });
    return recorded.status !== dispute.status;
  }
}
