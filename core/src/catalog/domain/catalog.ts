/**
 * The payment methods the platform offers: how the payer is asked to pay,
 * which currencies each takes, and when an FX rate locks for an intent in another currency.
 */
export type NextActionType = 'qr_code' | 'redirect';
export type FxLockPoint = 'on_create' | 'on_paid' | 'on_channel_settled';

export interface PaymentMethodEntry {
  readonly method: string;
  readonly nextAction: NextActionType;
  readonly currencies: readonly string[];
  readonly fxLockPoint: FxLockPoint;
}

const QR = { nextAction: 'qr_code', fxLockPoint: 'on_paid' } as const;
const WALLET = { nextAction: 'redirect', fxLockPoint: 'on_channel_settled' } as const;

export const PAYMENT_METHODS: readonly PaymentMethodEntry[] = [
  { method: 'promptpay', currencies: ['THB'], ...QR },
  { method: 'paynow', currencies: ['SGD'], ...QR },
  { method: 'duitnow', currencies: ['MYR'], ...QR },
  { method: 'qris', currencies: ['IDR'], ...QR },
  { method: 'gcash', currencies: ['PHP'], ...WALLET },
  { method: 'truemoney', currencies: ['THB'], ...WALLET },
  { method: 'alipay_plus', currencies: ['THB', 'SGD', 'MYR', 'PHP', 'IDR', 'USD'], ...WALLET },
];

/** Channels a payment can be routed through; `simulator` answers in test mode only. */
export const CHANNELS = ['simulator', 'rest', 'stripe'] as const;
export type ChannelName = (typeof CHANNELS)[number];

export function findPaymentMethod(method: string): PaymentMethodEntry | undefined {
  return PAYMENT_METHODS.find((entry) => entry.method === method);
}

/** Currencies at least one payment method can collect, sorted (the catalog is fixed: worked out once). */
const PAYABLE_CURRENCIES: readonly string[] = Object.freeze([...new Set(PAYMENT_METHODS.flatMap((entry) => entry.currencies))].sort());

/** Currencies at least one payment method can collect: an intent in any other could never be paid. */
export function payableCurrencies(): readonly string[] {
  return PAYABLE_CURRENCIES;
}

export function methodsForCurrency(currency: string): PaymentMethodEntry[] {
  return PAYMENT_METHODS.filter((entry) => entry.currencies.includes(currency));
}
