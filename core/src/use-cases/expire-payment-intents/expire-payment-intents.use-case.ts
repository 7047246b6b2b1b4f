import { isDueForExpiry } from '../../domain/payment-intent.entity';
import { changeStatus, type StatusChangeDeps } from '../../domain/payment-intent-status-change';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

/**
 * The expiry timer: intents in created, requires_payment or failed whose `expires_at` has passed
 * become `expired`, each with its event. Safe to run in several workers at once: each intent is
 * re-read with its row locked and skipped when another worker (or a cancel) got there first.
 */
export class ExpirePaymentIntents {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: StatusChangeDeps,
  ) {}

  /** Expires up to `limit` due intents; returns how many this call expired. */
  async execute(input: { limit: number }): Promise<number> {
    const due = await this.deps.intents.findDueForExpiry(this.deps.clock.now(), input.limit);
    let expired = 0;
    for (const candidate of due) {
      const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
      const done = await this.uow.run(async () => {
        const intent = await this.deps.intents.findByIdForUpdate(scope, candidate.id);
        if (!intent || !isDueForExpiry(intent, this.deps.clock.now())) return false;
        await changeStatus(this.deps, intent, 'expired');
        return true;
      });
      if (done) expired += 1;
    }
    return expired;
  }
}
