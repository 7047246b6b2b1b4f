import { isDueForExpiry } from '../../domain/payment-intent.entity';
import { changeStatus, type StatusChangeDeps } from '../../domain/payment-intent-status-change';
import { endPendingAttempt, voidOrder } from '../../domain/pending-attempt';
import type { PaymentAttemptRepository } from '../../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../../ports/payment-channel.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

/**
 * The expiry timer: intents in created, requires_payment or failed whose `expires_at` has passed
 * become `expired`, each with its event; a pending attempt fails (`expired`) and its order is
 * voided. Safe to run in several workers at once: each intent is re-read with its row locked and
 * skipped when another worker (or a cancel) got there first.
 */
export class ExpirePaymentIntents {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: StatusChangeDeps,
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
  ) {}

  /** Expires up to `limit` due intents; returns how many this call expired. */
  async execute(input: { limit: number }): Promise<number> {
    const due = await this.deps.intents.findDueForExpiry(this.deps.clock.now(), input.limit);
    let expired = 0;
    for (const candidate of due) {
      const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
      const outcome = await this.uow.run(async () => {
        const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
        const now = this.deps.clock.now();
        if (!intent || !isDueForExpiry(intent, now)) return undefined;
        const ended = await endPendingAttempt(this.attempts, scope, intent.id, 'expired', now);
        this.uow.afterCommit(() => voidOrder(this.channels, ended));
        await changeStatus(this.deps, { ...intent, nextAction: undefined }, 'expired');
        return true;
      });
      if (outcome) expired += 1;
    }
    return expired;
  }
}
