import type { AccountScope } from '../../shared';
import { CANCELABLE, type PaymentIntent } from '../domain/payment-intent.entity';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';
import { endPendingAttempt, voidOrder } from './pending-attempt';
import { CoreError, notFound } from '../../shared';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannelRegistry } from '../ports/payment-channel.port';
import type { UnitOfWork } from '../../shared';

export class CancelPaymentIntent {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: StatusChangeDeps,
    private readonly attempts: PaymentAttemptRepository,
    private readonly channels: PaymentChannelRegistry,
  ) {}

  /**
   * Cancels an intent in `created` or `requires_payment` and writes `payment_intent.canceled`
   * with it; a pending attempt fails (`canceled`) and its order is voided at the channel. Any
   * other status is 409 `invalid_state_transition`; unknown ids 404. The intent's row stays
   * locked until the change commits, so of simultaneous cancels one wins and the rest see it
   * canceled.
   */
  execute(input: { scope: AccountScope; id: string }): Promise<PaymentIntent> {
    return this.uow.run(async () => {
      const found = await this.deps.intents.findByIdForUpdate(input.scope, input.id);
      if (!found) throw notFound('payment_intent', input.id);
      if (!CANCELABLE.includes(found.status)) {
        throw new CoreError(
          'invalid_state_transition',
          'conflict',
          `Only a payment intent in status created or requires_payment can be canceled; this one is ${found.status}.`,
        );
      }
      const ended = await endPendingAttempt(this.attempts, input.scope, found.id, 'canceled', this.deps.clock.now());
      // The channel hears of it once the cancellation is committed, even when a caller's transaction encloses this one.
      this.uow.afterCommit(() => voidOrder(this.channels, ended));
      return changeStatus(this.deps, { ...found, nextAction: undefined }, 'canceled');
    });
  }
}
