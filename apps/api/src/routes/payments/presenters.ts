import {
  ID_PATTERNS,
  MONEY_STATUSES,
  type Money,
  type MoneyStatus,
  type NextAction,
  PAYMENT_INTENT_STATUSES,
  type PaymentAttempt,
  type PaymentIntent,
} from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, currency, dateTime, int64, list, mode, MONEY, object, ref, stringMap } from '../../openapi/json-schema';

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

/** The intent as the console reads it: the merchant API's object and its money statuses (refunded, disputed …). */
export function presentDashboardPaymentIntent(intent: PaymentIntent, moneyStatuses: readonly MoneyStatus[]): Record<string, unknown> {
  return { ...presentPaymentIntent(intent), money_statuses: [...moneyStatuses] };
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

/** What the example order is created with: 250.00 THB. */
const ORDER_1001_PARAMS = {
  amount: 25000,
  currency: 'THB',
  merchant_order_id: 'order-1001',
  description: 'Two tickets, Bangkok to Chiang Mai',
  customer: 'cus_4821',
  return_url: 'https://shop.example.com/thanks',
  metadata: { cart: 'c-7731' },
} as const;

/** The example order in test mode: what every state of the examples below shares. */
const ORDER_1001 = {
  id: 'pi_wRuAd6OgjF8fafigzwZwk6WP',
  object: 'payment_intent',
  mode: 'test',
  ...ORDER_1001_PARAMS,
  amount_refunded: 0,
  created: '2026-09-01T10:00:00Z',
  expires_at: '2026-09-01T11:00:00Z',
} as const;

/** What a PromptPay payment of it was priced at: 1.65 % fee, in the settlement currency. */
const PRICED = { payment_method: 'promptpay', fee: { amount: 412, currency: 'THB' }, net: { amount: 24588, currency: 'THB' } } as const;

/** Examples of the answers, in the states a test-mode payment of the example order goes through. */
export const PAYMENT_EXAMPLES = {
  /** The body that creates the example order. */
  createParams: ORDER_1001_PARAMS,
  /** As its create call answers it: created, with the payer's link. */
  created: { ...ORDER_1001, status: 'created', checkout_url: 'https://pay.example.com/c/kN3w0xQm6RvT1yB8pZc4HdLs9JfAeU2oGi7WqYt5Xk0' },
  /** Once paid: priced, its fee and net in the settlement currency. */
  succeeded: { ...ORDER_1001, ...PRICED, status: 'succeeded' },
  /** Once the channel settled it, its release timer running. */
  channelSettled: { ...ORDER_1001, ...PRICED, status: 'channel_settled', available_at: '2026-09-03T10:02:00Z' },
  /** Another order the merchant canceled before it was paid. */
  canceled: {
    id: 'pi_rYlJD7eKhD56Yi1TrEN77cX9',
    object: 'payment_intent',
    mode: 'test',
    amount: 89900,
    currency: 'THB',
    merchant_order_id: 'order-1002',
    status: 'canceled',
    amount_refunded: 0,
    created: '2026-09-01T10:20:00Z',
    expires_at: '2026-09-01T11:20:00Z',
    metadata: {},
  },
  /** An attempt waiting for the payer, with the QR payload to show. */
  attempt: {
    id: 'pa_SGRHO7EPLY2NEU2CYBV4IIM2SV',
    object: 'payment_attempt',
    payment_intent: ORDER_1001.id,
    status: 'pending',
    amount: 25000,
    currency: 'THB',
    payment_method: 'promptpay',
    channel: 'simulator',
    next_action: { type: 'qr_code', qr_data: 'SIMULATOR|promptpay|sim_BTNZV2MPQCS2CY6ZGWHXS6RGFT|25000|THB' },
    created: '2026-09-01T10:01:12Z',
  },
} as const;

const PAYMENT_INTENT_REQUIRED = ['id', 'object', 'mode', 'amount', 'currency', 'merchant_order_id', 'status', 'amount_refunded', 'created', 'metadata'];

const PAYMENT_INTENT_PROPERTIES = {
  id: { type: 'string', pattern: ID_PATTERNS.payment_intent.source, description: 'Unique identifier, `pi_…`.' },
  object: { ...constant('payment_intent'), description: 'Always `payment_intent`.' },
  mode: { ...mode, description: 'The mode of the key that made it; keys of the other mode do not see it.' },
  amount: { ...int64, description: 'Minor units of `currency` to collect, 1 to 2^53 − 1.' },
  currency: { ...currency, description: 'ISO 4217 code of `amount`.' },
  merchant_order_id: { type: 'string', description: 'The merchant’s own order reference, unique per merchant and mode.' },
  status: {
    type: 'string',
    enum: [...PAYMENT_INTENT_STATUSES],
    description:
      'Where the payment stands: created → requires_payment (an order placed) → processing → succeeded → channel_settled; or failed (another attempt may follow), ' +
      'expired, canceled. A payment the channel confirms is never dropped: failed, expired and canceled intents still become succeeded.',
  },
  payment_method: {
    type: 'string',
    description: 'The method of the latest attempt, or the one asked for at creation (`promptpay`, `paynow`, `gcash` …).',
  },
  channel_preference: { type: 'string', description: 'The channel asked for at creation, tried first when it can take the payment.' },
  description: { type: 'string', description: 'The merchant’s text, shown to the payer on the checkout page.' },
  customer: { type: 'string', description: 'The merchant’s reference for the payer.' },
  return_url: { type: 'string', format: 'uri', description: 'Where the checkout page sends the payer once the payment is over.' },
  fee: { ...ref('Money'), description: 'The platform’s fee, in the settlement currency; present once the payment is priced.' },
  net: { ...ref('Money'), description: 'What the merchant receives (amount less fee), in the settlement currency; present once the payment is priced.' },
  amount_refunded: {
    ...int64,
    description: 'What the refunds of this intent that did not fail add up to (pending ones included), in its currency; 0 when none.',
  },
  fx: { ...ref('FxLock'), description: 'Present when the intent’s currency is not the settlement currency.' },
  available_at: { ...dateTime, description: 'When the net becomes available to settle; set when the channel settles the payment.' },
  next_action: {
    ...ref('NextAction'),
    description: 'The payer’s credential from the pending attempt; cleared once the intent succeeds, fails, expires or is canceled.',
  },
  checkout_url: {
    type: 'string',
    format: 'uri',
    description: 'The hosted payment page to send the payer to. Only in the answer of the create call (and its replay), never again.',
  },
  created: { ...dateTime, description: 'When it was created.' },
  expires_at: { ...dateTime, description: 'After this no attempt is accepted and the intent expires.' },
  metadata: { ...stringMap, description: 'The merchant’s own key-value pairs, as sent at creation.' },
};

const PAYMENT_INTENT_DESCRIPTION = 'An amount a merchant wants to collect, and where its payment stands.';

/** The answers of payment intents and attempts. */
export const PAYMENT_SCHEMAS = components({
  ...MONEY,
  FxLock: object(
    ['locked'],
    {
      locked: { type: 'boolean', description: 'Whether the rate is fixed yet; fee and net are priced once it is.' },
      lock_point: {
        type: 'string',
        enum: ['on_create', 'on_paid', 'on_channel_settled'],
        description:
          'When the rate locks: when the payment succeeds (QR methods) or when the channel settles it (wallets). Absent until a payment method is known.',
      },
      rate: {
        type: 'string',
        description: 'The locked rate, settlement currency per unit of the intent’s: a decimal string, never a float. Absent until locked.',
      },
      quote_currency: { ...currency, description: 'The settlement currency the intent is priced in.' },
      locked_at: { ...dateTime, description: 'When the rate locked.' },
    },
    'The exchange rate of an intent in another currency than the settlement currency.',
  ),
  NextAction: object(
    ['type'],
    {
      type: { type: 'string', enum: ['redirect', 'qr_code'], description: 'What the payer does: scan `qr_data`, or open `url`.' },
      url: { type: 'string', format: 'uri', description: 'With `redirect`: the page where the payer pays.' },
      qr_data: { type: 'string', description: 'With `qr_code`: the payload to render as a QR code.' },
    },
    'What the payer needs to pay a pending attempt.',
  ),
  PaymentIntent: {
    ...object([...PAYMENT_INTENT_REQUIRED], PAYMENT_INTENT_PROPERTIES, PAYMENT_INTENT_DESCRIPTION),
    examples: [PAYMENT_EXAMPLES.succeeded],
  },
  DashboardPaymentIntent: {
    ...object(
      [...PAYMENT_INTENT_REQUIRED, 'money_statuses'],
      {
        ...PAYMENT_INTENT_PROPERTIES,
        money_statuses: {
          type: 'array',
          items: { type: 'string', enum: [...MONEY_STATUSES] },
          description:
            'Where the money went after the payment, in a merchant’s words, beside the channel’s `status`: at most one refund status (`refunded`: its refunds that did not fail, pending ones included, cover the whole amount; `partially_refunded`: part of it) ' +
            'then at most one dispute status (`disputed`: a dispute is open and holds the net; else `dispute_lost`: one was lost and the channel took the payment back; else `dispute_won`). Empty when none applies.',
        },
      },
      `${PAYMENT_INTENT_DESCRIPTION} As the console reads it: the merchant API's object with its money statuses.`,
    ),
    examples: [{ ...PAYMENT_EXAMPLES.succeeded, amount_refunded: 5000, money_statuses: ['partially_refunded'] }],
  },
  DashboardPaymentIntentList: list('DashboardPaymentIntent', { ...PAYMENT_EXAMPLES.succeeded, money_statuses: [] }),
  PaymentIntentList: list('PaymentIntent', PAYMENT_EXAMPLES.succeeded),
  PaymentAttempt: {
    ...object(
      ['id', 'object', 'payment_intent', 'status', 'amount', 'currency', 'created'],
      {
        id: { type: 'string', pattern: '^pa_[A-Z2-7]+$', description: 'Unique identifier, `pa_…`.' },
        object: { ...constant('payment_attempt'), description: 'Always `payment_attempt`.' },
        payment_intent: { type: 'string', description: 'The payment intent it tries to pay.' },
        status: {
          type: 'string',
          enum: ['pending', 'succeeded', 'failed'],
          description: 'pending while the channel waits for the payer; succeeded and failed are final.',
        },
        amount: { ...int64, description: 'The intent’s amount, in its minor units.' },
        currency: { ...currency, description: 'The intent’s currency.' },
        payment_method: { type: 'string', description: 'How the payer pays (`promptpay`, `gcash` …).' },
        channel: { type: 'string', description: 'The channel the order went to (`simulator` in test mode, `rest` …).' },
        next_action: { ...ref('NextAction'), description: 'The payment credential, while the attempt is pending.' },
        failure_code: {
          type: 'string',
          description:
            'Once failed, why: insufficient_funds, payer_cancelled, risk_blocked (the payer’s channel), expired (the intent expired), canceled (the merchant canceled the intent) ' +
            'or channel_error (the channel could not take the payment, or confirmed another amount).',
        },
        failure_message: { type: 'string', description: 'Once failed, a sentence for a person; branch on `failure_code`.' },
        succeeded_at: { ...dateTime, description: 'When the channel confirmed the payment.' },
        created: { ...dateTime, description: 'When the order was placed.' },
      },
      'One try at a channel.',
    ),
    examples: [PAYMENT_EXAMPLES.attempt],
  },
  PaymentAttemptList: list('PaymentAttempt', PAYMENT_EXAMPLES.attempt),
});
