import { isDueForExpiry, type PaymentIntent } from '../domain/payment-intent.entity';
import { MODES, type Mode } from '../../shared';
import type { ItemJob } from '../../jobs';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { endPendingAttempt, voidOrder } from './pending-attempt';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import type { UnitOfWork } from '../../shared';

/**
 * The expiry timer: intents in created, requires_payment or failed whose `expires_at` has passed
 * become `expired`, each with its event; a pending attempt fails (`expired`) and its order is
 * voided. Safe to run in several workers at once: each intent is re-read with its row locked and
 * skipped when another worker (or a cancel) got there first.
 */
export class ExpirePaymentIntents implements ItemJob<PaymentIntent> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: StatusChangeDeps,
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
  ) {}

  readonly name = 'expire-payment-intents';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentIntent[]> {
    return this.deps.intents.findDueForExpiry(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(intent: PaymentIntent): string {
    return intent.id;
  }

  /** Expires one due intent; false when another worker (or a cancel) got there first. */
  handle(candidate: PaymentIntent): Promise<boolean> {
    const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
    return this.uow.run(async () => {
      const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
      const now = this.deps.clock.now();
      if (!intent || !isDueForExpiry(intent, now)) return false;
      const ended = await endPendingAttempt(this.attempts, scope, intent.id, 'expired', now);
      this.uow.afterCommit(() => voidOrder(this.channels, ended));
      await changeStatus(this.deps, { ...intent, nextAction: undefined }, 'expired');
      return true;
    });
  }
}
