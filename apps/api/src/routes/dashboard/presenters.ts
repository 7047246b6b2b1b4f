import {
  API_KEY_ACCESS_LEVELS,
  API_KEY_RESOURCES,
  type ApiKey,
  apiKeyKindOf,
  type ApiKeyResource,
  DASHBOARD_ACTIONS,
  ID_PATTERNS,
  type Merchant,
  SETTLEMENT_SCHEDULES,
  type SigningKey,
  type User,
  USER_ROLES,
  USER_STATUSES,
} from '@payments/core';
import { compact, timestamp } from '../../http/presenting';
import { components, constant, dateTime, idMatching, type JsonSchema, list, mode, object } from '../../openapi/json-schema';

export interface DashboardUserJson {
  readonly id: string;
  readonly object: 'dashboard_user';
  readonly email: string;
  readonly name?: string;
  readonly role: string;
  readonly status: string;
  readonly mfa_enabled: boolean;
  readonly created: string;
}

/** A team member on the wire: never the password hash, the sealed secret or the last step used. */
export function presentUser(user: User): DashboardUserJson {
  return {
    id: user.id,
    object: 'dashboard_user',
    email: user.email,
    ...(user.name === undefined ? {} : { name: user.name }),
    role: user.role,
    status: user.status,
    mfa_enabled: user.mfaSecret !== undefined,
    created: timestamp(user.created),
  };
}

/**
 * The settings: the four fields the merchant changes, always present (`null` when unset, so a
 * client can tell "not set" from a field it does not know), and the operator-set facts it may read
 * but not change. `kyb_status` follows the review that opens live mode.
 */
export function presentSettings(merchant: Merchant): Record<string, unknown> {
  return compact({
    object: 'merchant_settings',
    id: merchant.id,
    business_name: merchant.name,
    support_email: merchant.supportEmail ?? null,
    statement_descriptor: merchant.statementDescriptor ?? null,
    settlement_schedule: merchant.settlementSchedule,
    status: 'active',
    kyb_status: merchant.liveEnabled ? 'approved' : 'pending',
    live_enabled: merchant.liveEnabled,
    settlement_currency: merchant.settlementCurrency,
    settlement_delay_days: merchant.settlementDelayDays,
  });
}

/** What each resource a restricted key may be given reaches on `/v1` (docs/api-keys.md). */
export const API_KEY_RESOURCE_ROUTES: Readonly<Record<ApiKeyResource, string>> = {
  payment_intents: 'payment intents, their attempts, the payment test helpers (simulate, advance) and FX quotes.',
  refunds: 'refunds and the refund test helper.',
  disputes: 'disputes and their evidence.',
  settlements: 'settlements and asking for one (pay out now).',
  balance: 'the balance and its balance transactions.',
  events: 'the events.',
  webhook_public_keys: 'the webhook public keys.',
};

/** An API key: its prefix, never the secret (the create answer adds `secret` itself); `permissions` null for a secret key. */
export function presentApiKey(key: ApiKey): Record<string, unknown> {
  return compact({
    id: key.id,
    object: 'api_key',
    mode: key.mode,
    kind: apiKeyKindOf(key),
    permissions: key.permissions === undefined ? null : { ...key.permissions },
    name: key.name,
    prefix: key.prefix,
    created: timestamp(key.created),
    revoked_at: key.revokedAt && timestamp(key.revokedAt),
  });
}

export function presentSigningKey(key: SigningKey): Record<string, unknown> {
  return compact({
    id: key.id,
    object: 'signing_key',
    algorithm: key.algorithm,
    public_key: key.publicKey,
    name: key.name,
    created: timestamp(key.created),
  });
}

const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });
/** A member as both the team list and the session show them. */
const USER_REQUIRED = ['id', 'object', 'email', 'role', 'status', 'mfa_enabled', 'created'];
const USER_PROPERTIES: Record<string, JsonSchema> = {
  id: idMatching(ID_PATTERNS.user),
  object: constant('dashboard_user'),
  email: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string', enum: [...USER_ROLES] },
  status: { type: 'string', enum: [...USER_STATUSES] },
  mfa_enabled: { type: 'boolean', description: 'Whether the member has claimed a second factor; a new or reset member has not.' },
  created: dateTime,
};

/** The answers of the team, sessions, keys and settings (dashboard). */
export const DASHBOARD_SCHEMAS = components({
  DashboardUser: object(USER_REQUIRED, USER_PROPERTIES, 'A member of the team. Never the password, its hash or the second-factor secret.'),
  DashboardSession: object(
    [...USER_REQUIRED, 'permissions'],
    {
      ...USER_PROPERTIES,
      permissions: {
        type: 'array',
        items: { type: 'string', enum: [...DASHBOARD_ACTIONS] },
        description: "The actions this user's role may perform (the role table); every other route answers 403.",
      },
    },
    'The signed-in user and what their role may do.',
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
    [
      'object',
      'id',
      'business_name',
      'support_email',
      'statement_descriptor',
      'settlement_schedule',
      'status',
      'kyb_status',
      'live_enabled',
      'settlement_currency',
      'settlement_delay_days',
    ],
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
  ApiKey: object(['id', 'object', 'mode', 'kind', 'permissions', 'prefix', 'created'], {
    id: idMatching(ID_PATTERNS.api_key),
    object: constant('api_key'),
    mode,
    kind: {
      type: 'string',
      enum: ['secret', 'restricted'],
      description: '`secret` (`sk_…`): every `/v1` route of its mode. `restricted` (`rk_…`): only what `permissions` names.',
    },
    permissions: {
      type: ['object', 'null'],
      description: 'A restricted key’s resources, each `read` or `write` (which includes read); a resource left out is closed. null for a secret key.',
      additionalProperties: false,
      properties: Object.fromEntries(
        API_KEY_RESOURCES.map((resource) => [resource, { type: 'string', enum: [...API_KEY_ACCESS_LEVELS], description: API_KEY_RESOURCE_ROUTES[resource] }]),
      ),
    },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'The first 16 characters of the secret (`sk_test_…`, `rk_live_…`), all that is kept in clear.' },
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
});
