import type { Mode, Money } from '../../common';
import { token } from '../../common';

/** Bank details a payout is sent to; the account number in clear, so never log this object. */
export interface PayoutAccount {
  readonly accountHolder: string;
  readonly bankCode: string;
  readonly accountNumber: string;
}

export type DestinationVerification = { readonly status: 'verified' } | { readonly status: 'rejected'; readonly reason?: string };

/** Where a payout stands at the payout provider. `processing` is asked about again later. */
export interface PayoutResult {
  readonly status: 'paid' | 'processing' | 'failed';
  /** With `failed`: the provider's reason code, safe to store and log (no account details). */
  readonly failureReason?: string;
}

export interface PayoutRequest {
  readonly mode: Mode;
  /** The settlement id: the idempotency key of the payout at the provider. */
  readonly reference: string;
  readonly amount: Money;
  readonly destination: PayoutAccount;
}

/**
 * Sends settlements to merchants' bank accounts (simulated in test mode, a payout provider in
 * live mode). Every call is safe to repeat: payouts are idempotent on their reference.
 */
export interface PayoutGateway {
  /** Whether payouts of `mode` can be made at all (live mode needs a configured provider). */
  supports(mode: Mode): boolean;
  /**
   * Asks the provider whether the account exists and may receive payouts. Throws CoreError
   * `unavailable` when the provider cannot be reached (retry later).
   */
  verifyDestination(mode: Mode, account: PayoutAccount): Promise<DestinationVerification>;
  /**
   * Creates the payout of `reference`, or answers the one created before with that reference in
   * its current state (never a second payout). Throws CoreError `unavailable` when no answer came:
   * the payout may or may not exist, so the caller asks again with the same reference.
   */
  sendPayout(request: PayoutRequest): Promise<PayoutResult>;
  /**
   * The current state of the payout of `reference`, or undefined when the provider has none
   * (it was never created: send it again). Throws CoreError `unavailable` like `sendPayout`.
   */
  queryPayout(mode: Mode, reference: string): Promise<PayoutResult | undefined>;
}
export const PayoutGateway = token<PayoutGateway>('PayoutGateway');
