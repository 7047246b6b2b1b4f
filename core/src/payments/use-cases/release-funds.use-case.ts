import type { PaymentFunds } from '../../funds';
import type { ItemJob } from '../../jobs';
import type { Clock, UnitOfWork } from '../../common';
import { MODES, type Mode } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export interface ReleaseFundsDeps {
  readonly uow: UnitOfWork;
  readonly intents: PaymentIntentRepository;
  readonly funds: PaymentFunds;
  readonly clock: Clock;
}

/**
 * The release timer: once `available_at` passes, a channel-settled intent is released, and what
 * its money still has in pending moves to available (`PaymentFunds.release`), in the same
 * transaction as the intent's `released_at`. The status stays `channel_settled` and no event is
 * sent. What refunds or a dispute's hold took out of pending meanwhile has left it already.
 */
export class ReleaseFunds implements ItemJob<PaymentIntent> {
  constructor(private readonly deps: ReleaseFundsDeps) {}

  readonly name = 'release-funds';
  readonly lanes = MODES;

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<PaymentIntent[]> {
    return this.deps.intents.findDueForRelease(mode, this.deps.clock.now(), limit + deferred.size);
  }

  idOf(intent: PaymentIntent): string {
    return intent.id;
  }

  /** Releases one intent whose timer ran out; false when another worker got there first. */
  handle(candidate: PaymentIntent): Promise<boolean> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const scope = { merchantId: candidate.merchantId, mode: candidate.mode };
      const intent = await self.deps.intents.findByIdForUpdate(scope, candidate.id);
      const now = self.deps.clock.now();
      if (intent?.status !== 'channel_settled' || intent.releasedAt !== undefined || !intent.availableAt || intent.availableAt > now) return false;
      const released: PaymentIntent = { ...intent, releasedAt: now, updated: now };
      await self.deps.intents.update(released);
      // Posts nothing when booked before, as it should be.
      await self.deps.funds.book(released, now);
      await self.deps.funds.release(released, now);
      return true;
    });
  }
}
