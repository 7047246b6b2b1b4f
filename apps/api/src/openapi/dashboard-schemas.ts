import { EVENT_TYPES, ID_PATTERNS, SETTLEMENT_SCHEDULES, USER_ROLES, USER_STATUSES } from '@payments/core';
import { constant, dateTime, list, mode, object, RESPONSE_SCHEMAS, type JsonSchema } from './response-schemas';

const id = (pattern: RegExp): JsonSchema => ({ type: 'string', pattern: pattern.source });
const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });

/**
 * What the dashboard presenters answer (apps/api/src/plugins/dashboard), as JSON Schema 2020-12.
 * Objects stay open, as in the merchant document; the answer test closes them.
 */
export const DASHBOARD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Error: RESPONSE_SCHEMAS.Error,
  DashboardUser: object(
    ['id', 'object', 'email', 'role', 'status', 'mfa_enabled', 'created'],
    {
      id: id(ID_PATTERNS.user),
      object: constant('dashboard_user'),
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', enum: [...USER_ROLES] },
      status: { type: 'string', enum: [...USER_STATUSES] },
      mfa_enabled: { type: 'boolean', description: 'Whether the member has claimed a second factor; a new or reset member has not.' },
      created: dateTime,
    },
    'A member of the team. Never the password, its hash or the second-factor secret.',
  ),
  DashboardUserList: list('DashboardUser'),
  MfaClaim: object(
    ['secret', 'otpauth_url'],
    {
      secret: { type: 'string', description: 'The base32 TOTP secret (SHA-1, 6 digits, 30 seconds), shown this once; only its sealed form is stored.' },
      otpauth_url: { type: 'string', description: '`otpauth://totp/…` for an authenticator app to scan.' },
    },
    'A claimed second factor.',
  ),
  MerchantSettings: object(
    ['object', 'id', 'business_name', 'support_email', 'statement_descriptor', 'settlement_schedule', 'status', 'kyb_status', 'live_enabled', 'settlement_currency', 'settlement_delay_days'],
    {
      object: constant('merchant_settings'),
      id: { type: 'string', pattern: '^mch_' },
      business_name: { type: 'string' },
      support_email: nullableString('null when unset.'),
      statement_descriptor: nullableString('null when unset.'),
      settlement_schedule: { type: 'string', enum: [...SETTLEMENT_SCHEDULES] },
      status: { type: 'string' },
      kyb_status: { type: 'string', enum: ['pending', 'approved'] },
      live_enabled: { type: 'boolean' },
      settlement_currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      settlement_delay_days: { type: 'integer' },
    },
    'The account settings: the four fields the merchant edits are always present (null when unset); the rest are set by the operator.',
  ),
  ApiKey: object(['id', 'object', 'mode', 'prefix', 'created'], {
    id: id(ID_PATTERNS.api_key),
    object: constant('api_key'),
    mode,
    name: { type: 'string' },
    prefix: { type: 'string' },
    secret: { type: 'string', description: 'Only in the answer that creates the key, never again.' },
    created: dateTime,
    revoked_at: dateTime,
  }),
  ApiKeyList: list('ApiKey'),
  SigningKey: object(['id', 'object', 'algorithm', 'public_key', 'created'], {
    id: { type: 'string', pattern: '^sgk_' },
    object: constant('signing_key'),
    algorithm: { type: 'string' },
    public_key: { type: 'string' },
    name: { type: 'string' },
    created: dateTime,
  }),
  SigningKeyList: list('SigningKey'),
  PayoutMethod: object(
    ['id', 'object', 'mode', 'type', 'currency', 'account_holder', 'bank_code', 'account_number', 'account_number_last4', 'status', 'default', 'created'],
    {
      id: id(ID_PATTERNS.payout_destination),
      object: constant('payout_method'),
      mode,
      type: { type: 'string', enum: ['bank_account', 'simulated'] },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      account_holder: { type: 'string' },
      bank_code: { type: 'string' },
      account_number: { type: 'string', description: 'Masked: `****` and the last four characters.' },
      account_number_last4: { type: 'string' },
      status: { type: 'string', enum: ['unverified', 'verified', 'rejected'] },
      default: { type: 'boolean' },
      hold_until: { ...dateTime, description: 'Live settlements wait until then after a change of destination.' },
      created: dateTime,
    },
  ),
  PayoutMethodList: list('PayoutMethod'),
  WebhookEndpoint: object(['id', 'object', 'mode', 'url', 'enabled_events', 'status', 'created', 'updated'], {
    id: id(ID_PATTERNS.webhook_endpoint),
    object: constant('webhook_endpoint'),
    mode,
    url: { type: 'string' },
    enabled_events: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, description: 'Empty: every event type.' },
    description: { type: 'string' },
    api_version: { type: 'string' },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    secret: { type: 'string', description: 'Only in the answer that creates the endpoint, never again.' },
    created: dateTime,
    updated: dateTime,
    delivery_attempts: { type: 'integer' },
    success_rate: { type: 'number', description: 'Share of attempts answered 2xx; absent before the first attempt.' },
    last_error: { type: 'string' },
    last_error_at: dateTime,
  }),
  WebhookEndpointList: list('WebhookEndpoint'),
  WebhookEndpointDeleted: object(['id', 'object', 'deleted'], { id: id(ID_PATTERNS.webhook_endpoint), object: constant('webhook_endpoint'), deleted: constant(true) }),
  WebhookDelivery: object(['id', 'object', 'mode', 'event', 'endpoint', 'url', 'status', 'attempts', 'created'], {
    id: id(ID_PATTERNS.webhook_delivery),
    object: constant('webhook_delivery'),
    mode: { ...mode, description: 'The mode of its endpoint and event; resend takes it as `?mode=`.' },
    event: id(ID_PATTERNS.event),
    endpoint: id(ID_PATTERNS.webhook_endpoint),
    url: { type: 'string', description: 'Where its last attempt went (the endpoint’s url of that moment).' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    response_status: { type: 'integer' },
    next_retry_at: dateTime,
    created: dateTime,
  }),
  WebhookDeliveryList: list('WebhookDelivery'),
};

