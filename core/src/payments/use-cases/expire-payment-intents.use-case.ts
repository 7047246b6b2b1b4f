import type { ItemJob } from '../../jobs';
import type { UnitOfWork } from '../../common';
import { MODES, type Mode } from '../../common';
import { isDueForExpiry, type PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { endPendingAttempt, voidOrder } from './pending-attempt';
export type ExpirePaymentIntentsDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
};

/**
 * The expiry timer: intents in created, requires_payment or failed whose `expires_at` has passed
 * become `expired`, each with its event; a pending attempt fails (`expired`) and its order is
 * voided. Safe to run in several workers at once: each intent is re-read with its row locked and
 * skipped when another worker (or a cancel) got there first.
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
  handle(candidate: PaymentIntent): Promise<boolean> {
    const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
    return this.deps.uow.run(async () => {
      const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
      const now = this.deps.clock.now();
      if (!intent || !isDueForExpiry(intent, now)) return false;
      const ended = await endPendingAttempt(this.deps.attempts, scope, intent.id, 'expired', now);
      this.deps.uow.afterCommit(() => voidOrder(this.deps.channels, ended));
      await changeStatus(this.deps, { ...intent, nextAction: undefined }, 'expired');
      return true;
    });
  }
}
