import type { ItemJob, JobPass } from '../../jobs';
import type { Clock } from '../../common';
import { MODES, type Mode } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import type { RecordChannelReport } from './record-channel-report.use-case';

/** How long to wait before asking a channel again about an order still pending. */
const RECHECK_MS = 5 * 60 * 1000;
export interface ReconcileAttemptsDeps {
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
  readonly recordReport: RecordChannelReport;
  readonly clock: Clock;
}

/**
 * The reconciler: attempts left pending past their channel's timeout are settled by the
 * confirming query, so a lost callback never leaves a paid intent unpaid.
 */
export class ReconcileAttempts implements ItemJob<PaymentAttempt> {
  constructor(private readonly deps: ReconcileAttemptsDeps) {}

  readonly name = 'reconcile-attempts';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentAttempt[]> {
    return this.deps.attempts.findDueForCheck(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(attempt: PaymentAttempt): string {
    return attempt.id;
  }

  /** Asks the channel about one attempt past its timeout; true when the channel answered. */
  async handle(attempt: PaymentAttempt, pass: JobPass): Promise<boolean> {
    const channel = this.deps.channels.find(attempt.channel);
    const scope = { merchantId: attempt.merchantId, mode: attempt.mode };
    let answered = false;
    // As for settlement reports: a channel that fails once is not asked again this pass.
    if (channel && attempt.channelOrderId && !pass.isDown(attempt.channel)) {
      const report = await channel.queryOrder(attempt.mode, attempt.channelOrderId).catch(() => {
        // The channel is down: ask again later rather than guess.
        pass.markDown(attempt.channel);
        return undefined;
      });
      // A report that cannot be recorded (a concurrent change, or a fault of its own) fails the
      // item: recorded, and tried again after its backoff.
      if (report) {
        await this.deps.recordReport.execute({ attempt, report });
        answered = true;
      }
    }
    const fresh = await this.deps.attempts.findById(scope, attempt.id);
    if (fresh?.status === 'pending') await this.deps.attempts.update({ ...fresh, nextCheckAt: new Date(this.deps.clock.now().getTime() + RECHECK_MS) });
    return answered;
  }
}
