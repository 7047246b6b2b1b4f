import type { CheckoutState } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

/**
 * CheckoutState as the page reads it: `status`, the credential while an attempt is pending,
 * `redirect_url` once paid (the intent's return_url), the chosen `payment_method`, the last
 * `failure_code` of a failed intent and `expires_at`.
 */
export function presentCheckoutState(state: CheckoutState): Record<string, unknown> {
  return compact({
    status: state.status,
    payment_method: state.paymentMethod,
    next_action:
      state.nextAction &&
      compact({
        type: state.nextAction.type,
        url: state.nextAction.url,
        qr_data: state.nextAction.qrData,
      }),
    redirect_url: state.redirectUrl,
    failure_code: state.failureCode,
    expires_at: state.expiresAt && timestamp(state.expiresAt),
  });
}
