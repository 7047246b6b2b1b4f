import type { ItemJob, JobPass } from '../../jobs';
import type { Clock } from '../../common';
import { MODES, type Mode } from '../../common';
import type { Refund } from '../domain/refund.entity';
import { placeRefund, type CreateRefundDeps } from './create-refund.use-case';
import { refundReportOf } from './record-refund-report.use-case';

export interface RefundReconcileRules {
  /** How long a refund may stay pending before its channel is asked about it, and between asks. */
  readonly staleAfterMs: number;
}
export type ReconcileRefundsDeps = CreateRefundDeps & {
  readonly clock: Clock;
  readonly rules: RefundReconcileRules;
};

/**
 * The refund reconciler: refunds left pending past the timeout are put to the channel's refund
 * query, and what it answers is recorded like a notice would be, so a result whose notice was
 * lost is still applied, once. A refund the channel never acknowledged (the service stopped, or
 * the channel could not be reached, between recording it and placing it) is placed again: the
 * channel is idempotent on the refund id, so this never refunds twice.
 */
export class ReconcileRefunds implements ItemJob<Refund> {
  constructor(private readonly deps: ReconcileRefundsDeps) {}

  readonly name = 'reconcile-refunds';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<Refund[]> {
    const now = this.deps.clock.now();
    return this.deps.refunds.findDueForCheck({
      mode,
      createdBefore: new Date(now.getTime() - this.deps.rules.staleAfterMs),
      now,
      limit: limit + deferred.size,
    });
  }

  idOf(refund: Refund): string {
    return refund.id;
  }

  /** Asks the channel about one refund (or places it again); true when its status changed. */
  async handle(refund: Refund, pass: JobPass): Promise<boolean> {
    // Scheduled before asking, whatever comes of it, so a refund that stays pending (or a channel
    // that is down) cannot hold the head of every batch and starve the refunds behind it.
    await this.deps.refunds.setNextCheck(refund.id, new Date(this.deps.clock.now().getTime() + this.deps.rules.staleAfterMs));
    const channel = this.deps.channels.find(refund.channel);
    if (!channel || pass.isDown(refund.channel)) return false;
    if (refund.channelRefundId === undefined || !channel.queryRefund) {
      const placed = await placeRefund(this.deps, refund);
      return placed.status !== refund.status;
    }
    const report = await channel.queryRefund(refund.mode, refund.channelRefundId).catch(() => {
      pass.markDown(refund.channel);
      return undefined;
    });
    if (!report || report.status === 'pending' || report.reference !== refund.id) return false;
    const recorded = await this.deps.recordReport.execute({ refund, report: refundReportOf(report) });
    return recorded.status !== refund.status;
  }
}
