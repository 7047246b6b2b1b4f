import { methodsForCurrency, type PaymentMethodEntry } from '../../payments';
import type { Mode } from '../../shared';
import type { MerchantRepository } from '../../merchants';
import type { PaymentAttemptRepository } from '../../payments';
import { checkoutStateOf, type CheckoutState } from './get-checkout-state.use-case';
import type { ResolveCheckoutSession } from './resolve-checkout-session.use-case';

/** Everything the hosted page shows; reading it creates nothing. */
export interface CheckoutPage {
  readonly mode: Mode;
  /** The business name of the dashboard settings (the account's name). */
  readonly merchantName: string;
  readonly amount: number;
  readonly currency: string;
  readonly description?: string;
  readonly merchantOrderId: string;
  /** The methods that collect the intent's currency (the intent's own method is preselected from the state). */
  readonly methods: readonly PaymentMethodEntry[];
  readonly state: CheckoutState;
}

/** `GET /c/{token}`: the page's data. 404 unknown token, 410 expired (no attempt is made either way). */
export class GetCheckoutPage {
  constructor(
    private readonly resolve: ResolveCheckoutSession,
    private readonly merchants: MerchantRepository,
    private readonly attempts: PaymentAttemptRepository,
  ) {}

  async execute(input: { token: string }): Promise<CheckoutPage> {
    const { intent } = await this.resolve.execute(input.token);
    const merchant = await this.merchants.findById(intent.merchantId);
    return {
      mode: intent.mode,
      merchantName: merchant?.name ?? '',
      amount: intent.amount,
      currency: intent.currency,
      description: intent.description,
      merchantOrderId: intent.merchantOrderId,
      methods: methodsForCurrency(intent.currency),
      state: await checkoutStateOf(intent, this.attempts),
    };
  }
}
