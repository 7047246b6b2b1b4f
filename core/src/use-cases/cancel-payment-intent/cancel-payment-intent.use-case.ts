import type { AccountScope } from '../../domain/mode';
import { CANCELABLE, type PaymentIntent } from '../../domain/payment-intent.entity';
import { changeStatus, type StatusChangeDeps } from '../../domain/payment-intent-status-change';
import { CoreError, notFound } from '../../errors/core-error';
import type { UnitOfWork } from '../../ports/unit-of-work.port';

export class CancelPaymentIntent {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: StatusChangeDeps,
  ) {}

  /**
   * Cancels an intent in `created` or `requires_payment` and writes `payment_intent.canceled`
   * with it. Any other status is 409 `invalid_state_transition`; unknown ids 404. The intent's
   * row stays locked until the change commits, so of simultaneous cancels one wins and the rest
   * see it canceled.
   */
  execute(input: { scope: AccountScope; id: string }): Promise<PaymentIntent> {
    return this.uow.run(async () => {
      const intent = await this.deps.intents.findByIdForUpdate(input.scope, input.id);
      if (!intent) throw notFound('payment_intent', input.id);
      if (!CANCELABLE.includes(intent.status)) {
        throw new CoreError(
          'invalid_state_transition',
          'conflict',
          `Only a payment intent in status created or requires_payment can be canceled; this one is ${intent.status}.`,
        );
      }
      return changeStatus(this.deps, intent, 'canceled');
    });
  }
}
