import type { PaymentAttemptRepository } from '../../payments';
import { checkoutStateOf, type CheckoutState } from './get-checkout-state.use-case';
import { checkoutSessionNotFound, type ResolveCheckoutSession } from './resolve-checkout-session.use-case';
import type { SimulatePayment } from '../../payments';

export const CHECKOUT_SIMULATE_OUTCOMES = ['succeeded', 'failed'] as const;
export type CheckoutSimulateOutcome = (typeof CHECKOUT_SIMULATE_OUTCOMES)[number];

/**
 * `POST /checkout/sessions/{token}/simulate`: the test page's "simulate success / failure"
 * buttons. The same rules as the intent simulate (`SimulatePayment`: failure_code only with
 * failed, one of the payer codes; the callback lands on the real path). A live session answers
 * exactly like an unknown token, expired or not, so the route reveals nothing about live sessions.
 */
export class SimulateCheckoutPayment {
  constructor(
    private readonly resolve: ResolveCheckoutSession,
    private readonly simulate: SimulatePayment,
    private readonly attempts: PaymentAttemptRepository,
  ) {}

  async execute(input: { token: string; outcome: CheckoutSimulateOutcome; failureCode?: string }): Promise<CheckoutState> {
    const found = await this.resolve.find(input.token);
    if (found?.mode !== 'test') throw checkoutSessionNotFound();
    const { session, intent } = await this.resolve.execute(input.token, found);
    const after = await this.simulate.execute({
      scope: { merchantId: session.merchantId, mode: session.mode },
      intentId: intent.id,
      outcome: input.outcome,
      failureCode: input.failureCode,
    });
    return checkoutStateOf(after, this.attempts);
  }
}
