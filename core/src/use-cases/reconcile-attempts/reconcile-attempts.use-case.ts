import type { Clock } from '../../ports/clock.port';
import type { PaymentAttemptRepository } from '../../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../../ports/payment-channel.port';
import type { RecordChannelReport } from '../record-channel-report/record-channel-report.use-case';

/** How long to wait before asking a channel again about an order still pending. */
const RECHECK_MS = 5 * 60 * 1000;

/**
 * The reconciler: attempts left pending past their channel's timeout are settled by the
 * confirming query, so a lost callback never leaves a paid intent unpaid.
 */
export class ReconcileAttempts {
  constructor(
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
    private readonly recordReport: RecordChannelReport,
    private readonly clock: Clock,
  ) {}

  /** Checks up to `limit` due attempts; returns how many the channel answered for. */
  async execute(input: { limit: number }): Promise<number> {
    const due = await this.attempts.findDueForCheck(this.clock.now(), input.limit);
    let answered = 0;
    // As for settlement reports: a channel that fails once is not asked again this tick.
    const unreachable = new Set<string>();
    for (const attempt of due) {
      const channel = this.channels.find(attempt.channel);
      const scope = { merchantId: attempt.merchantId, mode: attempt.mode };
      if (channel && attempt.channelOrderId && !unreachable.has(attempt.channel)) {
        const report = await channel.queryOrder(attempt.mode, attempt.channelOrderId).catch(() => {
          // The channel is down: ask again later rather than guess.
          unreachable.add(attempt.channel);
          return undefined;
        });
        // A report that cannot be recorded now (a concurrent change) is recorded on a later pass.
        if (report && (await this.recordReport.execute({ attempt, report }).then(() => true, () => false))) answered += 1;
      }
      const fresh = await this.attempts.findById(scope, attempt.id);
      if (fresh?.status === 'pending') {
        await this.attempts.update({ ...fresh, nextCheckAt: new Date(this.clock.now().getTime() + RECHECK_MS) }).catch(() => undefined);
      }
    }
    return answered;
  }
}
