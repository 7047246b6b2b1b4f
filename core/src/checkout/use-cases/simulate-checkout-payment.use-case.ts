import type { PaymentAttemptRepository, SimulatePayment } from '../../payments';
import { checkoutStateOf, type CheckoutState } from './get-checkout-state.use-case';
import { checkoutSessionNotFound, type ResolveCheckoutSession } from './resolve-checkout-session.use-case';

export const CHECKOUT_SIMULATE_OUTCOMES = ['succeeded', 'failed'] as const;
export type CheckoutSimulateOutcome = (typeof CHECKOUT_SIMULATE_OUTCOMES)[number];
export interface SimulateCheckoutPaymentDeps {
  readonly resolve: ResolveCheckoutSession;
  readonly simulate: SimulatePayment;
  readonly attempts: PaymentAttemptRepository;
}

/**
 * `POST /checkout/sessions/{token}/simulate`: the test page's "simulate success / failure"
 * buttons. The same rules as the intent simulate (`SimulatePayment`: failure_code only with
 * failed, one of the payer codes; the callback lands on the real path). A live session answers
 * exactly like an unknown token, expired or not, so the route reveals nothing about live sessions.
 */
export class SimulateCheckoutPayment {
  constructor(private readonly deps: SimulateCheckoutPaymentDeps) {}

  async execute(input: { token: string; outcome: CheckoutSimulateOutcome; failureCode?: string }): Promise<CheckoutState> {
    const found = await this.deps.resolve.find(input.token);
    if (found?.mode !== 'test') throw checkoutSessionNotFound();
    const { session, intent } = await this.deps.resolve.execute(input.token, found);
    const after = await this.deps.simulate.execute({
      scope: { merchantId: session.merchantId, mode: session.mode },
      intentId: intent.id,
      outcome: input.outcome,
      failureCode: input.failureCode,
    });
    return checkoutStateOf(after, this.deps.attempts);
  }
}
