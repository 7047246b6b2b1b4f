import type { MerchantRepository } from '../../merchants';
import type { PaymentAttemptRepository } from '../../payments';
import { methodsForCurrency, type PaymentMethodEntry } from '../../catalog';
import type { Mode } from '../../common';
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
export interface GetCheckoutPageDeps {
  readonly resolve: ResolveCheckoutSession;
  readonly merchants: MerchantRepository;
  readonly attempts: PaymentAttemptRepository;
}

/** `GET /c/{token}`: the page's data. 404 unknown token, 410 expired (no attempt is made either way). */
export class GetCheckoutPage {
  constructor(private readonly deps: GetCheckoutPageDeps) {}

  async execute(input: { token: string }): Promise<CheckoutPage> {
    const { intent } = await this.deps.resolve.execute(input.token);
    const merchant = await this.deps.merchants.findById(intent.merchantId);
    return {
      mode: intent.mode,
      merchantName: merchant?.name ?? '',
      amount: intent.amount,
      currency: intent.currency,
      description: intent.description,
      merchantOrderId: intent.merchantOrderId,
      methods: methodsForCurrency(intent.currency),
      state: await checkoutStateOf(intent, this.deps.attempts),
    };
  }
}
