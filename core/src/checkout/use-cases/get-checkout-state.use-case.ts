import type { AttemptFailureCode, NextAction, PaymentAttemptRepository, PaymentIntent, PaymentIntentStatus } from '../../payments';
import type { ResolveCheckoutSession } from './resolve-checkout-session.use-case';

/**
 * What the payer's page knows (its `status` route's answer): the intent's status, the credential
 * while an attempt is pending, where to go once paid, and why the last attempt failed.
 */
export interface CheckoutState {
  readonly status: PaymentIntentStatus;
  readonly paymentMethod?: string;
  readonly nextAction?: NextAction;
  /** The intent's return_url, only once the payment succeeded. */
  readonly redirectUrl?: string;
  /** The last attempt's failure while the intent is `failed`, so the page can say why. */
  readonly failureCode?: AttemptFailureCode;
  readonly expiresAt?: Date;
}

const PAID = ['succeeded', 'channel_settled'] as const;

/** The state of `intent` as the checkout shows it; reads the attempts only when they matter. */
export async function checkoutStateOf(intent: PaymentIntent, attempts: PaymentAttemptRepository): Promise<CheckoutState> {
  const scope = { merchantId: intent.merchantId, mode: intent.mode };
  const paid = (PAID as readonly string[]).includes(intent.status);
  let nextAction: NextAction | undefined;
  if (intent.status === 'requires_payment' || intent.status === 'processing') {
    // The pending attempt's own credential: the intent's copy may outlive a failed attempt.
    nextAction = (await attempts.findPending(scope, intent.id))?.nextAction;
  }
  let failureCode: AttemptFailureCode | undefined;
  if (intent.status === 'failed') {
    const history = await attempts.listForIntent(scope, intent.id);
    failureCode = history.filter((attempt) => attempt.status === 'failed').at(-1)?.failureCode;
  }
  return {
    status: intent.status,
    paymentMethod: intent.paymentMethod,
    nextAction,
    redirectUrl: paid ? intent.returnUrl : undefined,
    failureCode,
    expiresAt: intent.expiresAt,
  };
}
export interface GetCheckoutStateDeps {
  readonly resolve: ResolveCheckoutSession;
  readonly attempts: PaymentAttemptRepository;
}

/** `GET /checkout/sessions/{token}/status`: what the page polls. 404 unknown, 410 expired. */
export class GetCheckoutState {
  constructor(private readonly deps: GetCheckoutStateDeps) {}

  async execute(input: { token: string }): Promise<CheckoutState> {
    const { intent } = await this.deps.resolve.execute(input.token);
    return checkoutStateOf(intent, this.deps.attempts);
  }
}
