/** The objects the dashboard API answers (docs/dashboard-openapi.json), as far as the console reads them. */

export type Mode = 'test' | 'live';
export type Amount = number | bigint;

export interface Money {
  readonly amount: Amount;
  readonly currency: string;
}

export interface List<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly has_more: boolean;
}

export interface Session {
  readonly id: string;
  readonly email: string;
  readonly name?: string;
  readonly role: Role;
  readonly permissions: readonly string[];
}

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';
export const ROLES: readonly Role[] = ['owner', 'admin', 'developer', 'viewer'];

export interface Settings {
  readonly id: string;
  readonly business_name: string;
  readonly support_email: string | null;
  readonly statement_descriptor: string | null;
  readonly settlement_schedule: string;
  readonly status: string;
  readonly kyb_status: string;
  readonly live_enabled: boolean;
  readonly settlement_currency: string;
  readonly settlement_delay_days: number;
}

export interface FxLock {
  readonly locked: boolean;
  readonly lock_point?: string;
  readonly rate?: string;
  readonly quote_currency?: string;
  readonly locked_at?: string;
}

export interface PaymentIntent {
  readonly id: string;
  readonly mode: Mode;
  readonly amount: number;
  readonly currency: string;
  readonly merchant_order_id: string;
  readonly status: string;
  readonly description?: string;
  readonly payment_method?: string;
  readonly fee?: Money;
  readonly net?: Money;
  readonly amount_refunded: number;
  /** Where the money went after the payment, beside `status`: refunded, partially_refunded, disputed, dispute_won, dispute_lost. */
  readonly money_statuses?: readonly string[];
  readonly fx?: FxLock;
  readonly available_at?: string;
  readonly created: string;
  readonly expires_at?: string;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface PaymentAttempt {
  readonly id: string;
  readonly status: string;
  readonly amount: number;
  readonly currency: string;
  readonly payment_method?: string;
  readonly channel?: string;
  readonly failure_code?: string;
  readonly failure_message?: string;
  readonly created: string;
}

export interface Refund {
  readonly id: string;
  readonly payment_intent: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
  readonly reason?: string;
  readonly failure_code?: string;
  readonly created: string;
}

export interface Dispute {
  readonly id: string;
  readonly payment_intent: string;
  readonly status: string;
  readonly amount: number;
  readonly currency: string;
  readonly held?: Money;
  readonly fee?: Money;
  readonly reason?: string;
  readonly evidence: Readonly<Record<string, string>>;
  readonly due_by?: string;
  readonly opened_at: string;
  readonly closed_at?: string;
  readonly created: string;
}

/** What the next settlement pays in one currency, and when (absent `scheduled_for`: on request, or nothing to pay). */
export interface NextSettlement {
  readonly amount: Amount;
  readonly currency: string;
  readonly trigger: 'scheduled' | 'manual';
  readonly scheduled_for?: string;
}

export interface Balance {
  readonly available: readonly Money[];
  readonly pending: readonly Money[];
  readonly dispute_hold: readonly Money[];
  readonly next_settlement: readonly NextSettlement[];
}

/** Lines of one type that a settlement covers: how many, and what they moved on available. */
export interface SummaryLineTotal {
  readonly count: number;
  readonly amount: Amount;
}

/** What a settlement pays, by line type; the totals and `other` add up to its amount. */
export interface SettlementSummary {
  readonly lines: Readonly<Record<string, SummaryLineTotal>> & {
    readonly release: SummaryLineTotal & { readonly gross: Amount; readonly fee: Amount; readonly net: Amount };
  };
  readonly other: Amount;
}

export interface Settlement {
  readonly id: string;
  readonly status: string;
  readonly amount: Money;
  readonly payments?: number;
  readonly period_start: string;
  readonly period_end: string;
  readonly created: string;
  readonly summary?: SettlementSummary;
}

export interface ApiEvent {
  readonly id: string;
  readonly type: string;
  readonly created: string;
  readonly livemode: boolean;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly enabled_events: readonly string[];
  readonly description?: string;
  readonly api_version?: string;
  readonly status: 'enabled' | 'disabled';
  readonly secret?: string;
  readonly created: string;
  readonly delivery_attempts?: number;
  readonly success_rate?: number;
  readonly last_error?: string;
  readonly last_error_at?: string;
  readonly disabled_reason?: string;
}

export interface WebhookDelivery {
  readonly id: string;
  readonly event: string;
  readonly event_type?: string;
  readonly endpoint: string;
  readonly url: string;
  readonly status: string;
  readonly attempts: number;
  readonly response_status?: number;
  readonly next_retry_at?: string;
  readonly created: string;
}

/** What a restricted key may be given, in the order the API lists them (docs/api-keys.md). */
export const KEY_RESOURCES = ['payment_intents', 'refunds', 'disputes', 'settlements', 'balance', 'events', 'webhook_public_keys'] as const;
export type KeyResource = (typeof KEY_RESOURCES)[number];
export type KeyAccess = 'read' | 'write';
export type KeyPermissions = Partial<Record<KeyResource, KeyAccess>>;

export interface ApiKey {
  readonly id: string;
  readonly mode: Mode;
  /** `secret` (`sk_…`) reaches everything of its mode; `restricted` (`rk_…`) only its `permissions`. */
  readonly kind: 'secret' | 'restricted';
  readonly permissions: KeyPermissions | null;
  readonly name?: string;
  readonly prefix: string;
  readonly secret?: string;
  readonly created: string;
}

export interface SigningKey {
  readonly id: string;
  readonly name?: string;
  readonly public_key: string;
  readonly created: string;
}

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name?: string;
  readonly role: Role;
  readonly status: 'active' | 'disabled';
  readonly mfa_enabled: boolean;
  readonly created: string;
}

export interface PayoutMethod {
  readonly id: string;
  readonly type: string;
  readonly currency: string;
  readonly account_holder: string;
  readonly bank_code: string;
  readonly account_number: string;
  readonly status: string;
  readonly default: boolean;
  readonly hold_until?: string;
  readonly created: string;
}

export interface MfaClaim {
  readonly secret: string;
  readonly otpauth_url: string;
}

export interface WebhookDeliveryAttempt {
  readonly id: string;
  readonly at: string;
  readonly api_version?: string;
  readonly response_status?: number;
  readonly response_body?: string;
  readonly latency_ms: number;
  readonly error?: string;
}

export interface WebhookDeliveryDetail extends WebhookDelivery {
  readonly request: { readonly api_version: string; readonly body?: string };
  readonly attempt_log: readonly WebhookDeliveryAttempt[];
}

export interface WebhookTestEvent {
  readonly type: string;
  readonly request: { readonly api_version: string; readonly body: string };
  readonly response: { readonly status?: number; readonly body?: string; readonly error?: string; readonly latency_ms: number };
}

export interface WebhookOptions {
  readonly event_types: readonly string[];
  readonly default_event_types: readonly string[];
  readonly api_versions: readonly string[];
  readonly current_api_version: string;
}
