/**
 * The objects, parameters and events of the API (API version 2026-09-01), written to match
 * `docs/openapi.json`; `test/types-agree.test.ts` fails when the two drift apart.
 * Amounts are integers in minor units; timestamps are RFC 3339 strings; rates are decimal strings.
 */

/** `live` or `test`: a test key reaches only test data. */
export type Mode = 'live' | 'test';

/** An amount in minor units and its ISO 4217 currency. */
export interface Money {
  amount: number;
  currency: string;
}

/** Every status a payment intent can have, in the order of a payment's life. */
export const PAYMENT_INTENT_STATUSES = ['created', 'requires_payment', 'processing', 'succeeded', 'channel_settled', 'failed', 'expired', 'canceled'] as const;

/** One of PAYMENT_INTENT_STATUSES. */
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** How the payer completes the payment: a page to visit or a QR code to scan. */
export interface NextAction {
  type: 'redirect' | 'qr_code';
  url?: string;
  qr_data?: string;
}

/** The FX rate locked for an intent paid in another currency than the merchant settles in. */
export interface FxLock {
  locked: boolean;
  lock_point?: 'on_create' | 'on_paid' | 'on_channel_settled';
  /** Decimal string, never a float. */
  rate?: string;
  quote_currency?: string;
  locked_at?: string;
}

/** An amount a merchant wants to collect, and where its payment stands. */
export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  mode: Mode;
  amount: number;
  currency: string;
  merchant_order_id: string;
  status: PaymentIntentStatus;
  payment_method?: string;
  channel_preference?: string;
  description?: string;
  customer?: string;
  return_url?: string;
  fee?: Money;
  /** What the merchant receives, in the settlement currency. */
  net?: Money;
  /** What the refunds of this intent that did not fail add up to (pending ones included), in its currency; 0 when none. */
  amount_refunded: number;
  fx?: FxLock;
  /** When the funds become available. */
  available_at?: string;
  next_action?: NextAction;
  /** The hosted checkout page: only in the answer of `create`. */
  checkout_url?: string;
  created: string;
  expires_at?: string;
  metadata: Record<string, string>;
}

/** One try at a channel; a failed attempt stays in the history. */
export interface PaymentAttempt {
  id: string;
  object: 'payment_attempt';
  payment_intent: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  currency: string;
  payment_method?: string;
  channel?: string;
  /** The payment credential, while the attempt is pending. */
  next_action?: NextAction;
  failure_code?: string;
  failure_message?: string;
  succeeded_at?: string;
  created: string;
}

/** Every status a dispute can have; `won` and `lost` are rulings. */
export type DisputeStatus = 'opened' | 'under_review' | 'won' | 'lost';

/** A claim a channel makes against a paid intent. */
export interface Dispute {
  id: string;
  object: 'dispute';
  mode: Mode;
  payment_intent: string;
  status: DisputeStatus;
  /** What the channel claims back, in the currency the payer paid in. */
  amount: number;
  currency: string;
  /** Settlement currency frozen while the dispute is open. */
  held?: Money;
  /** What a lost dispute costs on top of the claim. */
  fee?: Money;
  reason?: string;
  evidence: Record<string, string>;
  due_by?: string;
  opened_at: string;
  closed_at?: string;
  created: string;
}

export type SettlementStatus = 'pending' | 'processing' | 'paid' | 'failed';

/**
 * Lines of one type a settlement covers, summed. Sums are exact: one past 2^53 − 1 arrives as a
 * BigInt (a smaller one stays a number).
 */
export interface SettlementLineTotal {
  /** How many lines (balance transactions) of this type. */
  count: number;
  /** What they moved on the available balance, signed, in minor units of the settlement's currency. */
  amount: number | bigint;
}

/** The payments a settlement pays (its `release` lines), with their gross, fee and net. */
export interface SettlementPaymentLines extends SettlementLineTotal {
  /** What their payers paid, in the settlement currency: `net + fee`. */
  gross: number | bigint;
  fee: number | bigint;
  /** Their nets; `amount` is less where refunds or disputes took some before release. */
  net: number | bigint;
}

/** What a settlement pays, by the type of the lines it covers: `lines.*.amount` and `other` sum to its `amount.amount`. */
export interface SettlementSummary {
  lines: {
    release: SettlementPaymentLines;
    refund: SettlementLineTotal;
    refund_reversal: SettlementLineTotal;
    dispute_hold: SettlementLineTotal;
    dispute_release: SettlementLineTotal;
    dispute_loss: SettlementLineTotal;
    settlement_failure: SettlementLineTotal;
    adjustment: SettlementLineTotal;
  };
  /** What `amount` pays beyond its lines: 0 but for settlements made before settlements recorded their lines (and the first one after). */
  other: number | bigint;
}

/** A payout to the merchant. */
export interface Settlement {
  id: string;
  object: 'settlement';
  mode: Mode;
  status: SettlementStatus;
  /** What the merchant is paid: the sum of the lines it covers (`summary`). */
  amount: Money;
  /** How many payment intents it covers. */
  payments?: number;
  period_start: string;
  period_end: string;
  created: string;
  summary: SettlementSummary;
}

/** What moved a merchant's money, one per kind of line (docs/balance-transactions.md). */
export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'release',
  'refund',
  'refund_reversal',
  'dispute_hold',
  'dispute_release',
  'dispute_loss',
  'settlement',
  'settlement_failure',
  'adjustment',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** The signed change of each bucket a line made; the three sum to its `net`. */
export interface BalanceTransactionMoves {
  pending: number;
  available: number;
  dispute_hold: number;
}

/** The payer's side of a payment or refund in another currency than the settlement currency. */
export interface BalanceTransactionExchange {
  /** Minor units of `currency`: paid (a payment), given back (a refund, negative) or returned (its reversal). */
  amount: number;
  currency: string;
  /** Decimal string: units of the line's currency for one unit of `currency`. */
  rate: string;
}

/**
 * One movement of the merchant's money, as the ledger booked it. `amount − fee = net`; the nets of
 * all lines of a currency sum to its available + pending + dispute_hold, and each bucket's moves to
 * that bucket.
 */
export interface BalanceTransaction {
  /** `txn_…`: the journal transaction it shows. */
  id: string;
  object: 'balance_transaction';
  type: BalanceTransactionType;
  /** `net + fee`: a payment's gross, a refund's whole amount (negative), what a lost dispute took (negative). */
  amount: number;
  /** A payment's or a lost dispute's fee (positive), a refund's fee share given back (negative). */
  fee: number;
  /** What the merchant's balance gained, all buckets together (negative: lost). */
  net: number;
  /** The settlement currency the line moved. */
  currency: string;
  moves: BalanceTransactionMoves;
  /** The object that caused it: `pi_…`, `re_…`, `dp_…` or `st_…`. */
  source: string;
  payment_intent?: string;
  /** When its money is (or was) available; absent while that is not known, and for pending or held money. */
  available_on?: string;
  /** The settlement that pays (or, on a `settlement` line, is) its movement of available money. */
  settlement?: string;
  created: string;
  exchange?: BalanceTransactionExchange;
}

/** Every status a refund can have: pending until the channel reports, then succeeded or failed (final). */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Why the channel did not return the money. */
export const REFUND_FAILURE_CODES = ['insufficient_channel_funds', 'channel_declined', 'expired_credential'] as const;
export type RefundFailureCode = (typeof REFUND_FAILURE_CODES)[number];

/**
 * Money given back to the payer of a paid intent, through the channel that took it. The merchant
 * is debited its share of the net; the fee is not returned.
 */
export interface Refund {
  id: string;
  object: 'refund';
  mode: Mode;
  payment_intent: string;
  /** Minor units of the payment intent's currency. */
  amount: number;
  currency: string;
  status: RefundStatus;
  reason?: RefundReason;
  /** When failed. */
  failure_code?: RefundFailureCode;
  metadata: Record<string, string>;
  created: string;
  succeeded_at?: string;
}

/**
 * A balance bucket in one currency. A balance sums many payments and may pass 2^53 − 1 minor
 * units, which a number cannot hold exactly: the API writes the exact integer, and the SDK reads
 * such an amount as a BigInt (a smaller one stays a number).
 */
export interface BalanceAmount {
  amount: number | bigint;
  currency: string;
}

/** What the next settlement will pay in one currency, and when. */
export interface NextSettlement {
  /**
   * A manual account: what `settlements.create()` would pay now. A scheduled one: the batch made at
   * `scheduled_for`, from what is known now. 0 when nothing would be paid. Exact, like the buckets.
   */
  amount: number | bigint;
  currency: string;
  trigger: 'scheduled' | 'manual';
  /** When the schedule makes it (ISO 8601, UTC); absent for a manual account, or when nothing would be paid. */
  scheduled_for?: string;
}

/** The balance in three buckets, one amount per currency in each, and the next settlement per currency. */
export interface Balance {
  object: 'balance';
  available: BalanceAmount[];
  pending: BalanceAmount[];
  dispute_hold: BalanceAmount[];
  next_settlement: NextSettlement[];
}

/** An indicative FX quote: mid rate plus spread. */
export interface FxQuote {
  indicative: true;
  from: string;
  to: string;
  /** Decimal string. */
  rate: string;
  /** Estimated settlement amount, when an amount was given. */
  estimated?: Money;
}

/** A platform key webhook `v2` signatures are made with. */
export interface WebhookPublicKey {
  id: string;
  object: 'webhook_public_key';
  algorithm: 'ed25519';
  /** The raw 32-byte Ed25519 public key, base64. */
  public_key: string;
}

/** A page of a list: `has_more` says whether another page follows. */
export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

// ---------------------------------------------------------------------------------------------
// Events

export type PaymentIntentEventStatus = Exclude<PaymentIntentStatus, 'created'>;
export type RefundEventStatus = 'created' | 'succeeded' | 'failed';
export type EventType =
  | `payment_intent.${PaymentIntentEventStatus}`
  | 'dispute.opened'
  | 'dispute.updated'
  | 'dispute.closed'
  | `settlement.${SettlementStatus}`
  | `refund.${RefundEventStatus}`;

/** Every event type, for filters and exhaustive switches. */
export const EVENT_TYPES: readonly EventType[] = [
  'payment_intent.requires_payment',
  'payment_intent.processing',
  'payment_intent.succeeded',
  'payment_intent.channel_settled',
  'payment_intent.failed',
  'payment_intent.expired',
  'payment_intent.canceled',
  'dispute.opened',
  'dispute.updated',
  'dispute.closed',
  'settlement.pending',
  'settlement.processing',
  'settlement.paid',
  'settlement.failed',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
];

/** An event's `data`: a notice, not the object. Read the object through the API before acting. */
export interface EventData<O extends string = string, S extends string = string> {
  id: string;
  object: O;
  status: S;
  /**
   * The merchant's id (`mch_…`): the one the event is delivered to. A delivery verified by the
   * platform key (v2) must name the client's own (its `account`), or it is refused.
   */
  merchant: string;
  /** The event's mode, as `livemode` says: a v2-verified delivery must be of the client's key's mode. */
  mode: Mode;
  /** Settlement and refund events carry the amount. */
  amount?: Money;
  /** Refund events: the payment intent refunded. */
  payment_intent?: string;
}

interface EventOf<T extends EventType, D> {
  /** `evt_…`: the same on every delivery and in `GET /v1/events`; de-duplicate on it. */
  id: string;
  type: T;
  created: string;
  livemode: boolean;
  data: D;
}

export type PaymentIntentEvent = { [S in PaymentIntentEventStatus]: EventOf<`payment_intent.${S}`, EventData<'payment_intent', S>> }[PaymentIntentEventStatus];
export type DisputeEvent = EventOf<'dispute.opened' | 'dispute.updated' | 'dispute.closed', EventData<'dispute', DisputeStatus>>;
export type SettlementEvent = { [S in SettlementStatus]: EventOf<`settlement.${S}`, EventData<'settlement', S> & { amount: Money }> }[SettlementStatus];

/** `refund.created` carries a pending refund; `refund.succeeded` and `refund.failed` a final one. */
export type RefundEvent =
  | EventOf<'refund.created', RefundEventData<'pending'>>
  | EventOf<'refund.succeeded', RefundEventData<'succeeded'>>
  | EventOf<'refund.failed', RefundEventData<'failed'>>;
type RefundEventData<S extends RefundStatus> = EventData<'refund', S> & { amount: Money; payment_intent: string };

/** Every event, discriminated by `type`: `switch (event.type)` narrows `event.data`. */
export type Event = PaymentIntentEvent | DisputeEvent | SettlementEvent | RefundEvent;

// ---------------------------------------------------------------------------------------------
// Parameters

/** Paging of every list: at most `limit` (1..100, default 20) items after `starting_after`. */
export interface ListParams {
  limit?: number;
  starting_after?: string;
}

export interface PaymentIntentCreateParams {
  /** Minor units, at least 1. */
  amount: number;
  currency: string;
  /** Unique per merchant; a second intent with it is 409. */
  merchant_order_id: string;
  payment_method?: string;
  channel_preference?: string;
  description?: string;
  customer?: string;
  /** An absolute https URL on a host name. */
  return_url?: string;
  /** Seconds until the intent expires. */
  expires_in?: number;
  metadata?: Record<string, string>;
}

export interface PaymentIntentListParams extends ListParams {
  status?: PaymentIntentStatus;
  merchant_order_id?: string;
  /** Only intents created at or after this time (a Date or an RFC 3339 string). */
  'created[gte]'?: string | Date;
}

export interface PaymentAttemptCreateParams {
  payment_method: string;
  channel?: string;
}

export type SimulateOutcome = 'succeeded' | 'failed' | 'pending' | 'dispute_opened' | 'dispute_won' | 'dispute_lost';

export interface PaymentIntentSimulateParams {
  outcome: SimulateOutcome;
  /** Only with outcome `failed`. */
  failure_code?: string;
  /** The amount the callback reports; defaults to the ordered amount. */
  amount?: number;
  currency?: string;
}

export interface PaymentIntentAdvanceParams {
  clock: 'expiry' | 'release';
}

export interface DisputeListParams extends ListParams {
  status?: DisputeStatus;
}

export interface DisputeEvidenceParams {
  /** Merged key by key into the evidence the dispute holds. */
  evidence: Record<string, string>;
}

export interface RefundCreateParams {
  /** The paid intent (`succeeded` or `channel_settled`) to refund. */
  payment_intent: string;
  /** Minor units of the intent's currency, at least 1; left out, the whole amount not refunded yet. */
  amount?: number;
  reason?: RefundReason;
  metadata?: Record<string, string>;
}

export interface RefundListParams extends ListParams {
  /** Only the refunds of this payment intent. */
  payment_intent?: string;
  status?: RefundStatus;
}

export interface RefundSimulateParams {
  outcome: 'succeeded' | 'failed';
  /** Only with outcome `failed`. */
  failure_code?: RefundFailureCode;
}

export type SettlementListParams = ListParams;

/** The filters of `balanceTransactions.list`; they combine. Dates are sent as RFC 3339; a date string (`2026-05-01`) as an upper bound takes in its whole day. */
export interface BalanceTransactionListParams extends ListParams {
  type?: BalanceTransactionType;
  payment_intent?: string;
  /** The lines whose available money this settlement covers, its own `settlement` line included. */
  settlement?: string;
  currency?: string;
  'created[gte]'?: string | Date;
  'created[lte]'?: string | Date;
  'available_on[gte]'?: string | Date;
  'available_on[lte]'?: string | Date;
}
export type EventListParams = ListParams;

/** The filters of `exports.paymentIntents`: those of `paymentIntents.list`, without paging. */
export interface PaymentIntentExportParams {
  status?: PaymentIntentStatus;
  merchant_order_id?: string;
  /** Only intents created at or after this time (a Date or an RFC 3339 string). */
  'created[gte]'?: string | Date;
}

/** `exports.settlements` takes no filters (nor does `settlements.list`): every settlement of the key's mode. */
export type SettlementExportParams = Record<string, never>;

/** The filters of `exports.balanceTransactions`: those of `balanceTransactions.list`, without paging. */
export type BalanceTransactionExportParams = Omit<BalanceTransactionListParams, keyof ListParams>;

/**
 * A CSV export (docs/exports.md): the file's text, without a byte order mark, and the name the
 * service gave it (`balance_transactions-test-2026-11-28.csv`). Parse it with any RFC 4180 reader;
 * amounts are exact decimal strings, never floats.
 */
export interface CsvFile {
  filename: string;
  text: string;
}

export interface FxQuoteParams {
  from: string;
  to: string;
  payment_method?: string;
  /** Minor units of `from`, at least 0. */
  amount?: number;
}

/** Per-call options every method takes as its last argument. */
export interface RequestOptions {
  /** For POSTs: the Idempotency-Key to send (one is generated otherwise); reused on retries. */
  idempotencyKey?: string;
  /** Overrides the client's Api-Version for this call. */
  apiVersion?: string;
  /** Overrides the client's timeout (milliseconds) for this call. */
  timeout?: number;
  /** Overrides the client's retry count for this call. */
  maxNetworkRetries?: number;
  /** Aborts the call, its retries and the waits between them; it then rejects with RequestAbortedError. */
  signal?: AbortSignal;
  /**
   * More headers for this call (names are case-insensitive). `Authorization` and `Idempotency-Key`
   * are not taken here: use a client of that key, and `idempotencyKey`.
   */
  headers?: Readonly<Record<string, string>>;
}
