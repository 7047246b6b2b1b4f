import type { AccountScope, Clock, UnitOfWork } from '../../common';
import { CoreError, notFound } from '../../common';
import { EXPIRABLE, type PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';
import { testModeRequired } from './simulate-payment.use-case';

export type TimerName = 'expiry' | 'release';

function notRunning(timer: TimerName, intent: PaymentIntent): CoreError {
  return new CoreError('invalid_state_transition', 'conflict', `The ${timer} timer is not running for a payment intent in status '${intent.status}'.`);
}
export interface AdvanceTimerDeps {
  readonly uow: UnitOfWork;
  readonly intents: PaymentIntentRepository;
  readonly clock: Clock;
}

/**
 * `POST /v1/test/payment_intents/{id}/advance`: moves a running timer's deadline to now; the
 * scheduled job acts on its next tick, as in live mode. A timer is never moved later, so a
 * repeat while it runs changes nothing; once it has fired, advancing it is 409.
 */
export class AdvanceTimer {
  constructor(private readonly deps: AdvanceTimerDeps) {}

  execute(input: { scope: AccountScope; intentId: string; timer: TimerName }): Promise<PaymentIntent> {
    if (input.scope.mode !== 'test') return Promise.reject(testModeRequired());
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(input.scope, input.intentId);
      if (!intent) throw notFound('payment_intent', input.intentId);
      const now = self.deps.clock.now();
      if (input.timer === 'expiry') {
        if (!EXPIRABLE.includes(intent.status) || intent.expiresAt === undefined) throw notRunning('expiry', intent);
        return intent.expiresAt <= now ? intent : self.deps.intents.update({ ...intent, expiresAt: now, updated: now });
      }
      if (intent.status !== 'channel_settled' || intent.releasedAt !== undefined || intent.availableAt === undefined) throw notRunning('release', intent);
      return intent.availableAt <= now ? intent : self.deps.intents.update({ ...intent, availableAt: now, updated: now });
    });
  }
}
