import type { Clock } from '../../ports/clock.port';
import type { PaymentIntentRepository } from '../../ports/payment-intent.repository.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

/**
 * The release timer: once `available_at` passes, a channel-settled intent's funds count as
 * available. It marks the intent released (the ledger issue books the movement with it); the
 * status stays `channel_settled` and no event is sent.
 */
export class ReleaseFunds {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { limit: number }): Promise<number> {
    const due = await this.intents.findDueForRelease(this.clock.now(), input.limit);
    let released = 0;
    for (const candidate of due) {
      const done = await this.uow.run(async () => {
        const intent = await this.intents.findByIdForUpdate({ merchantId: candidate.merchantId, mode: candidate.mode }, candidate.id);
        const now = this.clock.now();
        if (intent?.status !== 'channel_settled' || intent.releasedAt !== undefined || !intent.availableAt || intent.availableAt > now) return false;
        await this.intents.update({ ...intent, releasedAt: now, updated: now });
        return true;
      });
      if (done) released += 1;
    }
    return released;
  }
}
