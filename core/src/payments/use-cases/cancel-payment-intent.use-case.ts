import type { AccountScope, UnitOfWork } from '../../common';
import { CoreError, notFound } from '../../common';
import { CANCELABLE, type PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { endPendingAttempt, voidOrder } from './pending-attempt';
export type CancelPaymentIntentDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
};

export class CancelPaymentIntent {
  constructor(private readonly deps: CancelPaymentIntentDeps) {}

  /**
   * Cancels an intent in `created` or `requires_payment` and writes `payment_intent.canceled`
   * with it; a pending attempt fails (`canceled`) and its order is voided at the channel. Any
   * other status is 409 `invalid_state_transition`; unknown ids 404. The intent's row stays
   * locked until the change commits, so of simultaneous cancels one wins and the rest see it
   * canceled.
   */
  execute(input: { scope: AccountScope; id: string }): Promise<PaymentIntent> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const found = await self.deps.intents.findByIdForUpdate(input.scope, input.id);
      if (!found) throw notFound('payment_intent', input.id);
      if (!CANCELABLE.includes(found.status)) {
        throw new CoreError(
          'invalid_state_transition',
          'conflict',
          `Only a payment intent in status created or requires_payment can be canceled; this one is ${found.status}.`,
        );
      }
      const ended = await endPendingAttempt(self.deps.attempts, input.scope, found.id, 'canceled', self.deps.clock.now());
      // The channel hears of it once the cancellation is committed, even when a caller's transaction encloses this one.
      self.deps.uow.afterCommit(() => voidOrder(self.deps.channels, ended));
      return changeStatus(self.deps, { ...found, nextAction: undefined }, 'canceled');
    });
  }
}
