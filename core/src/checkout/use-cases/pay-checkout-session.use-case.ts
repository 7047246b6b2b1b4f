import { CoreError } from '../../shared';
import type { MerchantRepository } from '../../merchants';
import type { PaymentAttemptRepository } from '../../payments';
import type { PaymentIntentRepository } from '../../payments';
import type { PlaceAttempt } from '../../payments';
import type { ResolveCheckoutSession } from './resolve-checkout-session.use-case';
import { checkoutStateOf, type CheckoutState } from './get-checkout-state.use-case';

export interface PayCheckoutSessionResult {
  readonly state: CheckoutState;
  /** True when the channel refused the order at once (the attempt is recorded failed: 402). */
  readonly refused: boolean;
}

/**
 * `POST /checkout/sessions/{token}/pay`: the payer picks a method and gets a credential. The
 * attempt is `PlaceAttempt`'s, so a session already holding a pending attempt is answered with
 * that attempt's credential and no second order is placed. A live session whose merchant's live
 * mode has been closed since is refused before anything is created (409 `live_not_enabled`).
 */
export class PayCheckoutSession {
  constructor(
    private readonly resolve: ResolveCheckoutSession,
    private readonly merchants: MerchantRepository,
    private readonly placeAttempt: PlaceAttempt,
    private readonly intents: PaymentIntentRepository,
    private readonly attempts: PaymentAttemptRepository,
  ) {}

  async execute(input: { token: string; paymentMethod: string }): Promise<PayCheckoutSessionResult> {
    const { session, intent } = await this.resolve.execute(input.token);
    const scope = { merchantId: session.merchantId, mode: session.mode };
    if (session.mode === 'live') {
      const merchant = await this.merchants.findById(session.merchantId);
      if (!merchant?.liveEnabled) {
        throw new CoreError('live_not_enabled', 'conflict', 'This merchant cannot take live payments right now; no payment was started.');
      }
    }
    const { attempt, created } = await this.placeAttempt.execute({ scope, intentId: intent.id, paymentMethod: input.paymentMethod });
    const after = (await this.intents.findById(scope, intent.id)) ?? intent;
    return { state: await checkoutStateOf(after, this.attempts), refused: created && attempt.status === 'failed' };
  }
}
