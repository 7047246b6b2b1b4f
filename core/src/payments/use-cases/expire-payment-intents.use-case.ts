import type { ItemJob, JobPass } from '../../jobs';
import type { UnitOfWork } from '../../common';
import { MODES, type Mode } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';
import { isDueForExpiry, type PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { endPendingAttempt, voidOrder } from './pending-attempt';
import type { RecordChannelReport } from './record-channel-report.use-case';
export type ExpirePaymentIntentsDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
  readonly recordReport: RecordChannelReport;
};

/**
 * The expiry timer: intents in created, requires_payment or failed whose `expires_at` has passed
 * become `expired`, each with its event; a pending attempt fails (`expired`) and its order is
 * voided. The channel is asked about a pending attempt's order first: a payer who paid while every
 * callback was lost is recorded as paid, never expired with the money dropped; while the channel
 * does not answer, the intent waits. Safe to run in several workers at once: each intent is re-read
 * with its row locked and skipped when another worker (or a cancel) got there first.
 */
export class ExpirePaymentIntents implements ItemJob<PaymentIntent> {
  constructor(private readonly deps: ExpirePaymentIntentsDeps) {}

  readonly name = 'expire-payment-intents';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentIntent[]> {
    return this.deps.intents.findDueForExpiry(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(intent: PaymentIntent): string {
    return intent.id;
  }

  /** Expires one due intent; false when another worker (or a cancel) got there first. */
  async handle(candidate: PaymentIntent, pass: JobPass): Promise<boolean> {
    const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
    const pending = await this.deps.attempts.findPending(scope, candidate.id);
    if (pending && (await this.decidedByChannel(pending, pass))) return true;
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, candidate.id);
      const now = self.deps.clock.now();
      if (!intent || !isDueForExpiry(intent, now)) return false;
      const ended = await endPendingAttempt(self.deps.attempts, scope, intent.id, 'expired', now);
      self.deps.uow.afterCommit(() => voidOrder(self.deps.channels, ended));
      await changeStatus(self.deps, { ...intent, nextAction: undefined }, 'expired');
      return true;
    });
  }

  /**
   * Asks the channel about the order of the attempt still pending: true when its answer (paid,
   * processing, failed) was recorded and decided the intent instead of the expiry. A channel that
   * does not answer fails the item, so the runner tries it again after its backoff.
   */
  private async decidedByChannel(attempt: PaymentAttempt, pass: JobPass): Promise<boolean> {
    const channel = this.deps.channels.find(attempt.channel);
    if (!channel || !attempt.channelOrderId) return false;
    if (pass.isDown(attempt.channel)) throw new Error(`Channel ${attempt.channel} did not answer earlier in this pass.`);
    let report;
    try {
      report = await channel.queryOrder(attempt.mode, attempt.channelOrderId);
    } catch (error) {
      pass.markDown(attempt.channel);
      throw error;
    }
    if (report.status === 'pending') return false;
    await this.deps.recordReport.execute({ attempt, report });
    return true;
  }
}
