import type { MerchantRepository } from '../../merchants';
import type { PaymentAttemptRepository, PaymentIntentRepository, PlaceAttempt } from '../../payments';
import { CoreError } from '../../common';
import { checkoutStateOf, type CheckoutState } from './get-checkout-state.use-case';
import type { ResolveCheckoutSession } from './resolve-checkout-session.use-case';

export interface PayCheckoutSessionResult {
  readonly state: CheckoutState;
  /** True when the channel refused the order at once (the attempt is recorded failed: 402). */
  readonly refused: boolean;
}
export interface PayCheckoutSessionDeps {
  readonly resolve: ResolveCheckoutSession;
  readonly merchants: MerchantRepository;
  readonly placeAttempt: PlaceAttempt;
  readonly intents: PaymentIntentRepository;
  readonly attempts: PaymentAttemptRepository;
}

/**
 * `POST /checkout/sessions/{token}/pay`: the payer picks a method and gets a credential. The
 * attempt is `PlaceAttempt`'s, so a session already holding a pending attempt is answered with
 * that attempt's credential and no second order is placed. A live session whose merchant's live
 * mode has been closed since is refused before anything is created (409 `live_not_enabled`).
 */
export class PayCheckoutSession {
  constructor(private readonly deps: PayCheckoutSessionDeps) {}

  async execute(input: { token: string; paymentMethod: string }): Promise<PayCheckoutSessionResult> {
    const { session, intent } = await this.deps.resolve.execute(input.token);
    const scope = { merchantId: session.merchantId, mode: session.mode };
    if (session.mode === 'live') {
      const merchant = await this.deps.merchants.findById(session.merchantId);
      if (!merchant?.liveEnabled) {
        throw new CoreError('live_not_enabled', 'conflict', 'This merchant cannot take live payments right now; no payment was started.');
      }
    }
    const { attempt, created } = await this.deps.placeAttempt.execute({ scope, intentId: intent.id, paymentMethod: input.paymentMethod });
    const after = (await this.deps.intents.findById(scope, intent.id)) ?? intent;
    return { state: await checkoutStateOf(after, this.deps.attempts), refused: created && attempt.status === 'failed' };
  }
}
