import type Stripe from 'stripe';

/**
 * The recorded shapes of Stripe's answers this channel reads, typed against the SDK's own types:
 * each shape is a `Pick` of the SDK's type, so a field Stripe renames or retypes in a later SDK
 * stops these fixtures from compiling. Fields the channel never reads are left out.
 */
export type BalanceTransactionShape = Pick<
  Stripe.BalanceTransaction,
  'id' | 'object' | 'amount' | 'available_on' | 'created' | 'currency' | 'exchange_rate' | 'fee' | 'net' | 'reporting_category' | 'status' | 'type'
> & { source: string | ChargeShape | RefundShape | DisputeShape | null };

export type ChargeShape = Pick<Stripe.Charge, 'id' | 'object' | 'amount' | 'currency' | 'metadata' | 'status'> & {
  payment_intent: string;
  balance_transaction: string | BalanceTransactionShape | null;
};

export type PaymentIntentShape = Pick<
  Stripe.PaymentIntent,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_received'
  | 'currency'
  | 'status'
  | 'metadata'
  | 'next_action'
  | 'last_payment_error'
  | 'cancellation_reason'
  | 'livemode'
  | 'created'
> & { latest_charge: string | ChargeShape | null };

export type RefundShape = Pick<Stripe.Refund, 'id' | 'object' | 'amount' | 'currency' | 'metadata' | 'status' | 'failure_reason' | 'created'> & {
  payment_intent: string;
};

export type DisputeShape = Pick<Stripe.Dispute, 'id' | 'object' | 'amount' | 'currency' | 'status' | 'reason' | 'created' | 'livemode'> & {
  payment_intent: string | PaymentIntentShape;
};

export type EventShape = Pick<Stripe.Event, 'id' | 'object' | 'livemode' | 'created' | 'api_version' | 'pending_webhooks'> & {
  type: Stripe.Event['type'];
  data: { object: PaymentIntentShape | RefundShape | DisputeShape };
};

/** Stripe's error body (`{ error: { type, code, decline_code, message } }`). */
export interface ErrorShape {
  error: { type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error'; code?: string; decline_code?: string; message: string };
}

export type ListShape<T> = { object: 'list'; url: string; has_more: boolean; data: T[] };

export const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function promptPayIntent(id: string, amount: number, metadata: Record<string, string>, now: Date): PaymentIntentShape {
  return {
    id,
    object: 'payment_intent',
    amount,
    amount_received: 0,
    currency: 'thb',
    status: 'requires_action',
    metadata,
    next_action: {
      type: 'promptpay_display_qr_code',
      promptpay_display_qr_code: {
        data: `00020101021229370016A000000677010111011300668${amount}5802TH5303764${id.slice(-6)}`,
        hosted_instructions_url: `https://payments.stripe.com/qr/instructions/${id}`,
        image_url_png: `https://qr.stripe.com/${id}.png`,
        image_url_svg: `https://qr.stripe.com/${id}.svg`,
      },
    },
    last_payment_error: null,
    cancellation_reason: null,
    livemode: false,
    created: seconds(now),
    latest_charge: null,
  };
}

export function errorBody(type: ErrorShape['error']['type'], code: string, extra: { decline_code?: string } = {}): ErrorShape {
  return { error: { type, code, ...extra, message: `Recorded ${type} (${code}).` } };
}
