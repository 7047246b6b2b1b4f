import type { Money, NextAction, PaymentAttempt, PaymentIntent } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

function money(value: Money): { amount: number; currency: string } {
  return { amount: value.amount, currency: value.currency };
}

function nextAction(action: NextAction): Record<string, string> {
  return {
    type: action.type,
    ...(action.url === undefined ? {} : { url: action.url }),
    ...(action.qrData === undefined ? {} : { qr_data: action.qrData }),
  };
}

/** PaymentIntent as the API shows it; `checkoutUrl` only on the create answer. */
export function presentPaymentIntent(intent: PaymentIntent, checkoutUrl?: string): Record<string, unknown> {
  return compact({
    id: intent.id,
    object: 'payment_intent',
    mode: intent.mode,
    amount: intent.amount,
    currency: intent.currency,
    merchant_order_id: intent.merchantOrderId,
    status: intent.status,
    payment_method: intent.paymentMethod,
    channel_preference: intent.channelPreference,
    description: intent.description,
    customer: intent.customer,
    return_url: intent.returnUrl,
    fee: intent.fee && money(intent.fee),
    net: intent.net && money(intent.net),
    amount_refunded: intent.amountRefunded ?? 0,
    fx:
      intent.fx &&
      compact({
        locked: intent.fx.locked,
        lock_point: intent.fx.lockPoint,
        rate: intent.fx.rate,
        quote_currency: intent.fx.quoteCurrency,
        locked_at: intent.fx.lockedAt && timestamp(intent.fx.lockedAt),
      }),
    available_at: intent.availableAt && timestamp(intent.availableAt),
    next_action: intent.nextAction && nextAction(intent.nextAction),
    checkout_url: checkoutUrl,
    created: timestamp(intent.created),
    expires_at: intent.expiresAt && timestamp(intent.expiresAt),
    metadata: { ...intent.metadata },
  });
}

/** PaymentAttempt as the API shows it; the channel's own answers never appear. */
export function presentAttempt(attempt: PaymentAttempt): Record<string, unknown> {
  return compact({
    id: attempt.id,
    object: 'payment_attempt',
    payment_intent: attempt.paymentIntentId,
    status: attempt.status,
    amount: attempt.amount,
    currency: attempt.currency,
    payment_method: attempt.paymentMethod,
    channel: attempt.channel,
    next_action: attempt.status === 'pending' && attempt.nextAction ? nextAction(attempt.nextAction) : undefined,
    failure_code: attempt.failureCode,
    failure_message: attempt.failureMessage,
    succeeded_at: attempt.succeededAt && timestamp(attempt.succeededAt),
    created: timestamp(attempt.created),
  });
}
