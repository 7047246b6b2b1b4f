import type { ApiKey, Merchant, SigningKey, User } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

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

/** An API key: its prefix, never the secret (the create answer adds `secret` itself). */
export function presentApiKey(key: ApiKey): Record<string, unknown> {
  return compact({
    id: key.id,
    object: 'api_key',
    mode: key.mode,
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
