import type { ApiKey, Merchant, PayoutDestination, SigningKey, WebhookEndpoint, WebhookEndpointHealth } from '@payments/core';
import { compact, timestamp } from '../../http/presenting';

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

/** A payout destination, masked: the account number shows its last four characters only. */
export function presentPayoutMethod(destination: PayoutDestination): Record<string, unknown> {
  return compact({
    id: destination.id,
    object: 'payout_method',
    mode: destination.mode,
    type: destination.type,
    currency: destination.currency,
    account_holder: destination.accountHolder,
    bank_code: destination.bankCode,
    account_number: `****${destination.accountNumberLast4}`,
    account_number_last4: destination.accountNumberLast4,
    status: destination.status,
    default: destination.isDefault,
    hold_until: destination.holdUntil && timestamp(destination.holdUntil),
    created: timestamp(destination.created),
  });
}

/** A webhook endpoint without its secret (the create answer adds `secret` itself). */
export function presentWebhookEndpoint(endpoint: WebhookEndpoint): Record<string, unknown> {
  return compact({
    id: endpoint.id,
    object: 'webhook_endpoint',
    mode: endpoint.mode,
    url: endpoint.url,
    enabled_events: [...endpoint.enabledEvents],
    description: endpoint.description,
    api_version: endpoint.apiVersion,
    status: endpoint.status,
    created: timestamp(endpoint.created),
    updated: timestamp(endpoint.updated),
  });
}

/** An endpoint's delivery health: attempts made, the share answered 2xx, and the last failure. */
export function presentWebhookEndpointHealth(health: WebhookEndpointHealth): Record<string, unknown> {
  return compact({
    delivery_attempts: health.attempts,
    success_rate: health.attempts === 0 ? undefined : Math.round((health.successes / health.attempts) * 10_000) / 10_000,
    last_error: health.lastError,
    last_error_at: health.lastErrorAt && timestamp(health.lastErrorAt),
  });
}
