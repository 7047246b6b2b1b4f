import {
  DISPUTE_STATUSES,
  EVENT_TYPES,
  ID_PATTERNS,
  PAYMENT_INTENT_STATUSES,
  REFUND_FAILURE_CODES,
  REFUND_REASONS,
  REFUND_STATUSES,
  SETTLEMENT_STATUSES,
} from '@payments/core';

/**
 * What the merchant presenters answer, as JSON Schema 2020-12 (the dialect of OpenAPI 3.1),
 * written once: the OpenAPI document, its response validation test and the SDK's type check all
 * read these. Objects stay open (no `additionalProperties: false`) because adding a response field
 * is not a new API version; the validation test closes them so an undocumented field still fails.
 */
export type JsonSchema = Record<string, unknown>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$' };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const int64: JsonSchema = { type: 'integer', format: 'int64' };
export const mode: JsonSchema = { type: 'string', enum: ['live', 'test'] };
const stringMap: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
export const constant = (value: string | boolean): JsonSchema => ({ const: value });

export function object(required: string[], properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', ...(description ? { description } : {}), required, properties };
}

export function list(item: string): JsonSchema {
  return object(
    ['object', 'data', 'has_more'],
    { object: constant('list'), data: { type: 'array', items: ref(item) }, has_more: { type: 'boolean' } },
    `A page of ${item}.`,
  );
}

export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Money: object(
    ['amount', 'currency'],
    { amount: int64, currency },
    'An amount in minor units and its currency. Amounts of payment intents, fees, nets, disputes, settlements and quotes are at most 2^53 − 1 (9007199254740991).',
  ),
  BalanceAmount: object(
    ['amount', 'currency'],
    {
      amount: {
        ...int64,
        description:
          'Exact minor units: a balance sums many payments and may pass 2^53 − 1. It is always written as the digits of the exact integer; ' +
          'a JSON reader that turns numbers into doubles rounds one past 2^53 − 1 (the SDK reads those as BigInt).',
      },
      currency,
    },
    'A balance bucket in one currency.',
  ),
  FxLock: object(['locked'], {
    locked: { type: 'boolean' },
    lock_point: { type: 'string', enum: ['on_create', 'on_paid', 'on_channel_settled'] },
    rate: { type: 'string', description: 'Decimal string, never a float.' },
    quote_currency: currency,
    locked_at: dateTime,
  }),
  NextAction: object(['type'], {
    type: { type: 'string', enum: ['redirect', 'qr_code'] },
    url: { type: 'string', format: 'uri' },
    qr_data: { type: 'string' },
  }),
  PaymentIntent: object(
    ['id', 'object', 'mode', 'amount', 'currency', 'merchant_order_id', 'status', 'amount_refunded', 'created', 'metadata'],
    {
      id: { type: 'string', pattern: ID_PATTERNS.payment_intent.source },
      object: constant('payment_intent'),
      mode,
      amount: int64,
      currency,
      merchant_order_id: { type: 'string' },
      status: { type: 'string', enum: [...PAYMENT_INTENT_STATUSES] },
      payment_method: { type: 'string' },
      channel_preference: { type: 'string' },
      description: { type: 'string' },
      customer: { type: 'string' },
      return_url: { type: 'string', format: 'uri' },
      fee: ref('Money'),
      net: ref('Money'),
      amount_refunded: {
        ...int64,
        description: 'What the refunds of this intent that did not fail add up to (pending ones included), in its currency; 0 when none.',
      },
      fx: ref('FxLock'),
      available_at: dateTime,
      next_action: ref('NextAction'),
      checkout_url: { type: 'string', format: 'uri', description: 'Only in the answer of the create call.' },
      created: dateTime,
      expires_at: dateTime,
      metadata: stringMap,
    },
    'An amount a merchant wants to collect, and where its payment stands.',
  ),
  PaymentIntentList: list('PaymentIntent'),
  PaymentAttempt: object(
    ['id', 'object', 'payment_intent', 'status', 'amount', 'currency', 'created'],
    {
      id: { type: 'string', pattern: '^pa_[A-Z2-7]+$' },
      object: constant('payment_attempt'),
      payment_intent: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      amount: int64,
      currency,
      payment_method: { type: 'string' },
      channel: { type: 'string' },
      next_action: { ...ref('NextAction'), description: 'The payment credential, while the attempt is pending.' },
      failure_code: { type: 'string' },
      failure_message: { type: 'string' },
      succeeded_at: dateTime,
      created: dateTime,
    },
    'One try at a channel.',
  ),
  PaymentAttemptList: list('PaymentAttempt'),
  Refund: object(
    ['id', 'object', 'mode', 'payment_intent', 'amount', 'currency', 'status', 'metadata', 'created'],
    {
      id: { type: 'string', pattern: ID_PATTERNS.refund.source },
      object: constant('refund'),
      mode,
      payment_intent: { type: 'string', pattern: ID_PATTERNS.payment_intent.source },
      amount: { ...int64, description: "Minor units of the payment intent's currency, given back to the payer." },
      currency,
      status: { type: 'string', enum: [...REFUND_STATUSES], description: 'pending until the channel reports; succeeded and failed are final.' },
      reason: { type: 'string', enum: [...REFUND_REASONS] },
      failure_code: { type: 'string', enum: [...REFUND_FAILURE_CODES], description: 'Why the channel did not return the money (when failed).' },
      metadata: stringMap,
      created: dateTime,
      succeeded_at: dateTime,
    },
    'Money returned to the payer of a paid payment intent, through the channel that took it. The merchant is debited its share of the net; the fee is not returned.',
  ),
  RefundList: list('Refund'),
  Dispute: object(['id', 'object', 'mode', 'payment_intent', 'status', 'amount', 'currency', 'evidence', 'opened_at', 'created'], {
    id: { type: 'string', pattern: ID_PATTERNS.dispute.source },
    object: constant('dispute'),
    mode,
    payment_intent: { type: 'string' },
    status: { type: 'string', enum: [...DISPUTE_STATUSES] },
    amount: int64,
    currency,
    held: ref('Money'),
    fee: ref('Money'),
    reason: { type: 'string' },
    evidence: stringMap,
    due_by: dateTime,
    opened_at: dateTime,
    closed_at: dateTime,
    created: dateTime,
  }),
  DisputeList: list('Dispute'),
  Settlement: object(['id', 'object', 'mode', 'status', 'amount', 'period_start', 'period_end', 'created'], {
    id: { type: 'string', pattern: ID_PATTERNS.settlement.source },
    object: constant('settlement'),
    mode,
    status: { type: 'string', enum: [...SETTLEMENT_STATUSES] },
    amount: { ...ref('Money'), description: 'At most 2^53 − 1: a batch whose payments sum past it is paid as several settlements of the same period.' },
    payments: { type: 'integer' },
    period_start: dateTime,
    period_end: dateTime,
    created: dateTime,
  }),
  SettlementList: list('Settlement'),
  Balance: object(['object', 'available', 'pending', 'dispute_hold'], {
    object: constant('balance'),
    available: { type: 'array', items: ref('BalanceAmount') },
    pending: { type: 'array', items: ref('BalanceAmount') },
    dispute_hold: { type: 'array', items: ref('BalanceAmount') },
  }),
  FxQuote: object(['indicative', 'from', 'to', 'rate'], {
    indicative: constant(true),
    from: currency,
    to: currency,
    rate: { type: 'string' },
    estimated: ref('Money'),
  }),
  EventData: object(
    ['id', 'object', 'status', 'merchant', 'mode'],
    {
      id: { type: 'string' },
      object: { type: 'string' },
      status: { type: 'string' },
      merchant: { type: 'string', pattern: '^mch_' },
      mode,
      amount: { ...ref('Money'), description: 'Settlement and refund events: the amount.' },
      payment_intent: { type: 'string', description: 'Refund events: the payment intent refunded.' },
    },
    'A notice, not the object: read the object through the API before acting.',
  ),
  Event: object(['id', 'type', 'created', 'livemode', 'data'], {
    id: { type: 'string', pattern: ID_PATTERNS.event.source },
    type: {
      type: 'string',
      enum: [...EVENT_TYPES],
      description:
        'refund.created, refund.succeeded and refund.failed reach only the webhook endpoints whose enabled_events names them (an empty list means every other type); GET /v1/events lists them all.',
    },
    created: dateTime,
    livemode: { type: 'boolean' },
    data: ref('EventData'),
  }),
  EventList: list('Event'),
  WebhookPublicKey: object(['id', 'object', 'algorithm', 'public_key'], {
    id: { type: 'string', pattern: '^key_[A-Z2-7]+$' },
    object: constant('webhook_public_key'),
    algorithm: constant('ed25519'),
    public_key: { type: 'string', contentEncoding: 'base64', description: 'The raw 32-byte Ed25519 key.' },
  }),
  WebhookPublicKeyList: list('WebhookPublicKey'),
  Error: object(['error'], {
    error: object(['code', 'message', 'request_id'], {
      code: { type: 'string', description: 'Stable: the field to branch on.' },
      message: { type: 'string', description: 'For a person; may change.' },
      param: { type: 'string' },
      request_id: { type: 'string' },
    }),
  }),
  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
  },
};
