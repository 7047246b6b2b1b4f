import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { DEFAULT_DISPUTE_FEE_MINOR, DEFAULT_FEE_SCHEDULE, parseFeeSchedule, type FeeSchedule } from '@payments/core';
import { DEFAULT_ACQUIRE_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, type KnexOptions } from '@payments/storage-sql';
import Joi from 'joi';
import { isProxyEntry } from './http/client-ip';
import { otelVariables, tracingEnabled, type TracingEnvironment } from './tracing/tracing';

/** Everything the service reads from its environment, read and validated once at start. */
export interface Config {
  readonly nodeEnv: string;
  readonly port: number;
  readonly host: string;
  /** Public base URL; builds checkout_url. */
  readonly baseUrl: string;
  readonly dataDir: string;
  /** `mysql://…` for production, `sqlite:<file>` for the embedded default. */
  readonly databaseUrl: string;
  /**
   * Session and pool settings of the database (MySQL / MariaDB): the statement timeout
   * (PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS, default 30000; 0 = off), the pool's acquire timeout
   * (PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS, default 5000) and Galera's `wsrep_sync_wait`
   * (PAYMENTS_DATABASE_WSREP_SYNC_WAIT, `auto` or 0–15).
   */
  readonly database: Required<Pick<KnexOptions, 'statementTimeoutMs' | 'acquireTimeoutMs' | 'wsrepSyncWait'>>;
  /** Longest a request may take before it is answered 503 with Retry-After (PAYMENTS_REQUEST_TIMEOUT_MS, default 15000; 0 = off). */
  readonly requestTimeoutMs: number;
  /** Redis for locks and rate limits shared by every process; absent: in-process (one process only). */
  readonly redisUrl?: string;
  readonly redisKeyPrefix: string;
  /** 32 bytes that encrypt stored secrets (AES-256-GCM). */
  readonly masterKey: Buffer;
  readonly tickMs: number;
  /** Seconds between `platform-keys rotate` publishing a key and webhooks being signed with it (PAYMENTS_KEY_ACTIVATION_S). */
  readonly keyActivationSeconds: number;
  /** How long a relay pass holds the deliveries it claimed (PAYMENTS_WEBHOOK_LEASE_MS, default 60000, at least 11000). */
  readonly webhookLeaseMs: number;
  /** Requests per second per API key; 0 turns the limit off. */
  readonly rateLimitLive: number;
  readonly rateLimitTest: number;
  /** Requests per second per hosted checkout token (PAYMENTS_RATE_LIMIT_CHECKOUT, default 10); 0 turns the limit off. */
  readonly rateLimitCheckout: number;
  readonly logLevel: string;
  /**
   * The OTEL_* variables when they turn traces on (OpenTelemetry, docs/operations.md): they name an
   * exporter (OTEL_TRACES_EXPORTER, or an OTLP endpoint) and OTEL_SDK_DISABLED is not `true`.
   * Absent (the default): no traces, and nothing of OpenTelemetry is loaded.
   */
  readonly tracing?: TracingEnvironment;
  /** Prometheus `/metrics` on a port of its own (PAYMENTS_METRICS_PORT, default 9464; 0 = off), bound to PAYMENTS_METRICS_HOST (default 127.0.0.1). */
  readonly metricsPort: number;
  readonly metricsHost: string;
  /** Seconds between the worker's ledger verifications for the metrics (PAYMENTS_LEDGER_VERIFY_EVERY_S, default 3600; 0 = off). */
  readonly ledgerVerifyEverySeconds: number;
  /** How many objects a CSV export reads per page of its list (PAYMENTS_EXPORT_PAGE_SIZE, 1–100, default 100): one page is what it holds in memory. */
  readonly exportPageSize: number;
  /** The rest channel's endpoint per mode (docs/channels/rest.md); a mode without one is not offered. */
  readonly restChannel: { readonly test?: RestChannelEndpointConfig; readonly live?: RestChannelEndpointConfig };
  /**
   * Whether the stripe channel is offered (PAYMENTS_STRIPE_CHANNEL=on; docs/channels/stripe.md).
   * It then takes the payments of the merchants whose keys the operator set (`admin channel set stripe`).
   */
  readonly stripeChannel: boolean;
  /**
   * Whether the omise channel is offered (PAYMENTS_OMISE_CHANNEL=on; docs/channels/omise.md).
   * It then takes the payments of the merchants whose keys the operator set (`admin channel set omise`).
   */
  readonly omiseChannel: boolean;
  /** The live payout provider (docs/payouts/rest.md); absent: live settlements wait, logged. */
  readonly payoutRest?: { readonly baseUrl: string; readonly secret: string };
  /** Base URL channels send their callbacks to (`/channels/<name>/callback/<mode>` is appended). */
  readonly channelCallbackUrl: string;
  /** Where live mid rates come from; absent: the bundled reference table. */
  readonly fxRatesUrl?: string;
  /** Timeout of one request to the rate feed, and how long one fetched table is served. */
  readonly fxRatesTimeoutMs: number;
  readonly fxRatesCacheTtlMs: number;
  /** The platform's FX spread in basis points, in its favour. */
  readonly fxSpreadBps: number;
  /** Fee schedule override (JSON) laid over the default schedule. */
  readonly fees: FeeSchedule;
  /** What a lost dispute costs, in minor units of the settlement currency (PAYMENTS_DISPUTE_FEE, default 1500). */
  readonly disputeFeeMinor: number;
  /** How long an open dispute may go without news before the worker asks its channel (PAYMENTS_DISPUTE_RECONCILE_AFTER_S, default 3600), and again after each ask. */
  readonly disputeReconcileAfterMs: number;
  /** How long a refund may stay pending before the worker asks its channel (PAYMENTS_REFUND_RECONCILE_AFTER_S, default 900), and again after each ask. */
  readonly refundReconcileAfterMs: number;
  /** Seconds between the worker's reconciliations with the channels' statements (PAYMENTS_RECON_EVERY_S, default 300; 0 = off). */
  readonly reconEverySeconds: number;
  /** How long a mismatch with the statement may last before it is a break (PAYMENTS_RECON_GRACE_S, default 7200). */
  readonly reconGraceMs: number;
  /** Proxies (IPs, CIDR ranges) whose X-Forwarded-For is believed: the client IP the sign-in throttle counts. */
  readonly trustedProxies: readonly string[];
  /** IPs the webhook egress guard lets through (PAYMENTS_EGRESS_ALLOW): local testing only, refused in production. */
  readonly egressAllow: readonly string[];
  /** Host name → IP for webhook deliveries (PAYMENTS_DNS_OVERRIDES, `host=ip,host2=ip2`, like curl --resolve). */
  readonly dnsOverrides: Readonly<Record<string, string>>;
}

/** One environment of the rest channel: its base URL, our Bearer key there, its callback secret. */
export interface RestChannelEndpointConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly callbackSecret: string;
}

/** The environment as the schema below leaves it: converted, with its defaults filled in. */
interface ValidatedEnv {
  readonly NODE_ENV: string;
  readonly PAYMENTS_PORT: number;
  readonly PAYMENTS_HOST: string;
  readonly PAYMENTS_BASE_URL: string;
  readonly PAYMENTS_DATA_DIR: string;
  readonly PAYMENTS_DATABASE_URL?: string;
  readonly PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS: number;
  readonly PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS: number;
  readonly PAYMENTS_DATABASE_WSREP_SYNC_WAIT: string;
  readonly PAYMENTS_REQUEST_TIMEOUT_MS: number;
  readonly PAYMENTS_REDIS_URL?: string;
  readonly PAYMENTS_REDIS_PREFIX: string;
  readonly PAYMENTS_MASTER_KEY?: string;
  readonly PAYMENTS_TICK_MS: number;
  readonly PAYMENTS_KEY_ACTIVATION_S: number;
  readonly PAYMENTS_WEBHOOK_LEASE_MS: number;
  readonly PAYMENTS_RATE_LIMIT_LIVE: number;
  readonly PAYMENTS_RATE_LIMIT_TEST: number;
  readonly PAYMENTS_RATE_LIMIT_CHECKOUT: number;
  readonly PAYMENTS_CHANNEL_CALLBACK_URL?: string;
  readonly PAYMENTS_FX_RATES_URL?: string;
  readonly PAYMENTS_FX_RATES_TIMEOUT_MS: number;
  readonly PAYMENTS_FX_RATES_TTL_MS: number;
  readonly PAYMENTS_FX_SPREAD_BPS: number;
  readonly PAYMENTS_FEES?: string;
  readonly PAYMENTS_DISPUTE_FEE: number;
  readonly PAYMENTS_DISPUTE_RECONCILE_AFTER_S: number;
  readonly PAYMENTS_REFUND_RECONCILE_AFTER_S: number;
  readonly PAYMENTS_RECON_EVERY_S: number;
  readonly PAYMENTS_RECON_GRACE_S: number;
  readonly PAYMENTS_REST_CHANNEL_TEST_URL?: string;
  readonly PAYMENTS_STRIPE_CHANNEL: 'on' | 'off';
  readonly PAYMENTS_OMISE_CHANNEL: 'on' | 'off';
  readonly PAYMENTS_REST_CHANNEL_TEST_KEY?: string;
  readonly PAYMENTS_REST_CHANNEL_TEST_SECRET?: string;
  readonly PAYMENTS_REST_CHANNEL_LIVE_URL?: string;
  readonly PAYMENTS_REST_CHANNEL_LIVE_KEY?: string;
  readonly PAYMENTS_REST_CHANNEL_LIVE_SECRET?: string;
  readonly PAYMENTS_PAYOUT_REST_URL?: string;
  readonly PAYMENTS_PAYOUT_REST_SECRET?: string;
  readonly PAYMENTS_TRUSTED_PROXIES?: string;
  readonly PAYMENTS_EGRESS_ALLOW?: string;
  readonly PAYMENTS_DNS_OVERRIDES?: string;
  readonly PAYMENTS_METRICS_PORT: number;
  readonly PAYMENTS_METRICS_HOST: string;
  readonly PAYMENTS_LEDGER_VERIFY_EVERY_S: number;
  readonly PAYMENTS_EXPORT_PAGE_SIZE: number;
  readonly LOG_LEVEL: string;
}

const schema = Joi.object<ValidatedEnv>({
  NODE_ENV: Joi.string().default('development'),
  PAYMENTS_PORT: Joi.number().integer().min(0).max(65535).default(4242),
  PAYMENTS_HOST: Joi.string().default('0.0.0.0'),
  PAYMENTS_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:4242'),
  PAYMENTS_DATA_DIR: Joi.string().default('.data'),
  PAYMENTS_DATABASE_URL: Joi.string().pattern(/^(mysql|mariadb|sqlite):/, 'mysql://…, mariadb://… or sqlite:<file>'),
  PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).default(DEFAULT_STATEMENT_TIMEOUT_MS),
  PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS: Joi.number().integer().min(100).default(DEFAULT_ACQUIRE_TIMEOUT_MS),
  PAYMENTS_DATABASE_WSREP_SYNC_WAIT: Joi.string()
    .pattern(/^(auto|[0-9]|1[0-5])$/, 'auto or 0–15')
    .default('auto'),
  // Below Hapi's socket timeout (2 minutes), which must stay the longer of the two.
  PAYMENTS_REQUEST_TIMEOUT_MS: Joi.number().integer().min(0).max(110_000).default(15_000),
  PAYMENTS_REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  PAYMENTS_REDIS_PREFIX: Joi.string().default('payments:'),
  PAYMENTS_MASTER_KEY: Joi.string().hex().length(64),
  PAYMENTS_TICK_MS: Joi.number().integer().min(10).default(1000),
  PAYMENTS_KEY_ACTIVATION_S: Joi.number().integer().min(0).default(3600),
  PAYMENTS_WEBHOOK_LEASE_MS: Joi.number().integer().min(11_000).default(60_000),
  PAYMENTS_RATE_LIMIT_LIVE: Joi.number().integer().min(0).default(100),
  PAYMENTS_RATE_LIMIT_TEST: Joi.number().integer().min(0).default(25),
  PAYMENTS_RATE_LIMIT_CHECKOUT: Joi.number().integer().min(0).default(10),
  PAYMENTS_CHANNEL_CALLBACK_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  PAYMENTS_FX_RATES_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  PAYMENTS_FX_RATES_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(5000),
  PAYMENTS_FX_RATES_TTL_MS: Joi.number().integer().min(0).default(60_000),
  PAYMENTS_FX_SPREAD_BPS: Joi.number().integer().min(0).max(9999).default(50),
  PAYMENTS_FEES: Joi.string(),
  PAYMENTS_DISPUTE_FEE: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER).default(DEFAULT_DISPUTE_FEE_MINOR),
  PAYMENTS_DISPUTE_RECONCILE_AFTER_S: Joi.number()
    .integer()
    .min(1)
    .max(30 * 24 * 3600)
    .default(3600),
  PAYMENTS_REFUND_RECONCILE_AFTER_S: Joi.number()
    .integer()
    .min(1)
    .max(30 * 24 * 3600)
    .default(900),
  PAYMENTS_RECON_EVERY_S: Joi.number()
    .integer()
    .min(0)
    .max(24 * 3600)
    .default(300),
  PAYMENTS_RECON_GRACE_S: Joi.number()
    .integer()
    .min(0)
    .max(30 * 24 * 3600)
    .default(7200),
  PAYMENTS_REST_CHANNEL_TEST_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  PAYMENTS_STRIPE_CHANNEL: Joi.string().valid('on', 'off').default('off'),
  PAYMENTS_OMISE_CHANNEL: Joi.string().valid('on', 'off').default('off'),
  PAYMENTS_REST_CHANNEL_TEST_KEY: Joi.string(),
  PAYMENTS_REST_CHANNEL_TEST_SECRET: Joi.string().min(16),
  PAYMENTS_REST_CHANNEL_LIVE_URL: Joi.string().uri({ scheme: ['https'] }),
  PAYMENTS_REST_CHANNEL_LIVE_KEY: Joi.string(),
  PAYMENTS_REST_CHANNEL_LIVE_SECRET: Joi.string().min(16),
  PAYMENTS_PAYOUT_REST_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  PAYMENTS_PAYOUT_REST_SECRET: Joi.string().min(16),
  PAYMENTS_TRUSTED_PROXIES: Joi.string()
    .allow('')
    .custom(
      (value: string, helpers) => (splitList(value).every(isProxyEntry) ? value : helpers.error('any.invalid')),
      'IP addresses or CIDR ranges, comma separated',
    ),
  PAYMENTS_EGRESS_ALLOW: Joi.string()
    .allow('')
    .custom(
      (value: string, helpers) => (splitList(value).every((entry) => isIP(entry) !== 0) ? value : helpers.error('any.invalid')),
      'IP addresses, comma separated',
    ),
  PAYMENTS_DNS_OVERRIDES: Joi.string()
    .allow('')
    .custom((value: string, helpers) => (dnsOverridesFrom(value) ? value : helpers.error('any.invalid')), 'host=ip pairs, comma separated'),
  PAYMENTS_METRICS_PORT: Joi.number().integer().min(0).max(65535).default(9464),
  PAYMENTS_METRICS_HOST: Joi.string().default('127.0.0.1'),
  PAYMENTS_LEDGER_VERIFY_EVERY_S: Joi.number().integer().min(0).default(3600),
  PAYMENTS_EXPORT_PAGE_SIZE: Joi.number().integer().min(1).max(100).default(100),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
})
  .and('PAYMENTS_REST_CHANNEL_TEST_URL', 'PAYMENTS_REST_CHANNEL_TEST_KEY', 'PAYMENTS_REST_CHANNEL_TEST_SECRET')
  .and('PAYMENTS_REST_CHANNEL_LIVE_URL', 'PAYMENTS_REST_CHANNEL_LIVE_KEY', 'PAYMENTS_REST_CHANNEL_LIVE_SECRET')
  .and('PAYMENTS_PAYOUT_REST_URL', 'PAYMENTS_PAYOUT_REST_SECRET')
  .unknown(true);

export class ConfigError extends Error {}

/**
 * Reads the configuration. In development a missing master key is generated into the data
 * directory on first start; with NODE_ENV=production it is a start-up error.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.validate(env, { abortEarly: false });
  if (result.error) throw new ConfigError(`Invalid configuration: ${result.error.details.map((d) => d.message).join('; ')}`);
  const value = result.value;
  const dataDir = resolve(value.PAYMENTS_DATA_DIR);
  const nodeEnv = value.NODE_ENV;
  return {
    nodeEnv,
    port: value.PAYMENTS_PORT,
    host: value.PAYMENTS_HOST,
    baseUrl: value.PAYMENTS_BASE_URL.replace(/\/$/, ''),
    dataDir,
    databaseUrl: value.PAYMENTS_DATABASE_URL ?? `sqlite:${join(dataDir, 'payments.sqlite')}`,
    database: {
      statementTimeoutMs: value.PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS,
      acquireTimeoutMs: value.PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS,
      wsrepSyncWait: value.PAYMENTS_DATABASE_WSREP_SYNC_WAIT === 'auto' ? 'auto' : Number(value.PAYMENTS_DATABASE_WSREP_SYNC_WAIT),
    },
    requestTimeoutMs: value.PAYMENTS_REQUEST_TIMEOUT_MS,
    redisUrl: value.PAYMENTS_REDIS_URL,
    redisKeyPrefix: value.PAYMENTS_REDIS_PREFIX,
    masterKey: masterKeyFrom(value.PAYMENTS_MASTER_KEY, nodeEnv, dataDir),
    tickMs: value.PAYMENTS_TICK_MS,
    keyActivationSeconds: value.PAYMENTS_KEY_ACTIVATION_S,
    webhookLeaseMs: value.PAYMENTS_WEBHOOK_LEASE_MS,
    rateLimitLive: value.PAYMENTS_RATE_LIMIT_LIVE,
    rateLimitTest: value.PAYMENTS_RATE_LIMIT_TEST,
    rateLimitCheckout: value.PAYMENTS_RATE_LIMIT_CHECKOUT,
    logLevel: value.LOG_LEVEL,
    ...(tracingEnabled(env) ? { tracing: otelVariables(env) } : {}),
    metricsPort: value.PAYMENTS_METRICS_PORT,
    metricsHost: value.PAYMENTS_METRICS_HOST,
    ledgerVerifyEverySeconds: value.PAYMENTS_LEDGER_VERIFY_EVERY_S,
    exportPageSize: value.PAYMENTS_EXPORT_PAGE_SIZE,
    stripeChannel: value.PAYMENTS_STRIPE_CHANNEL === 'on',
    omiseChannel: value.PAYMENTS_OMISE_CHANNEL === 'on',
    restChannel: {
      ...(value.PAYMENTS_REST_CHANNEL_TEST_URL ? { test: restEndpoint(value, 'TEST') } : {}),
      ...(value.PAYMENTS_REST_CHANNEL_LIVE_URL ? { live: restEndpoint(value, 'LIVE') } : {}),
    },
    ...(value.PAYMENTS_PAYOUT_REST_URL
      ? {
          payoutRest: {
            baseUrl: httpsInProduction('PAYMENTS_PAYOUT_REST_URL', value.PAYMENTS_PAYOUT_REST_URL, nodeEnv),
            secret: value.PAYMENTS_PAYOUT_REST_SECRET ?? '',
          },
        }
      : {}),
    channelCallbackUrl: (value.PAYMENTS_CHANNEL_CALLBACK_URL ?? value.PAYMENTS_BASE_URL).replace(/\/$/, ''),
    fxRatesUrl: value.PAYMENTS_FX_RATES_URL === undefined ? undefined : httpsInProduction('PAYMENTS_FX_RATES_URL', value.PAYMENTS_FX_RATES_URL, nodeEnv),
    fxRatesTimeoutMs: value.PAYMENTS_FX_RATES_TIMEOUT_MS,
    fxRatesCacheTtlMs: value.PAYMENTS_FX_RATES_TTL_MS,
    fxSpreadBps: value.PAYMENTS_FX_SPREAD_BPS,
    fees: feesFrom(value.PAYMENTS_FEES),
    disputeFeeMinor: value.PAYMENTS_DISPUTE_FEE,
    disputeReconcileAfterMs: value.PAYMENTS_DISPUTE_RECONCILE_AFTER_S * 1000,
    refundReconcileAfterMs: value.PAYMENTS_REFUND_RECONCILE_AFTER_S * 1000,
    reconEverySeconds: value.PAYMENTS_RECON_EVERY_S,
    reconGraceMs: value.PAYMENTS_RECON_GRACE_S * 1000,
    trustedProxies: splitList(value.PAYMENTS_TRUSTED_PROXIES ?? ''),
    egressAllow: egressAllowFrom(value.PAYMENTS_EGRESS_ALLOW ?? '', nodeEnv),
    dnsOverrides: dnsOverridesFrom(value.PAYMENTS_DNS_OVERRIDES ?? '') ?? {},
  };
}

/**
 * Payout instructions and the rates that price payments move money: in production they travel
 * over TLS only. Plain http stays allowed elsewhere for local stubs and tests.
 */
function httpsInProduction(name: string, url: string, nodeEnv: string): string {
  if (nodeEnv === 'production' && !url.startsWith('https:')) throw new ConfigError(`${name} must be an https URL with NODE_ENV=production.`);
  return url;
}

function egressAllowFrom(value: string, nodeEnv: string): string[] {
  const list = splitList(value);
  if (list.length > 0 && nodeEnv === 'production') throw new ConfigError('PAYMENTS_EGRESS_ALLOW is for local testing and is refused with NODE_ENV=production.');
  return list;
}

/** `host=ip,host2=ip2` → { host: ip, host2: ip2 } (host names lower-cased), or undefined when malformed. */
function dnsOverridesFrom(value: string): Record<string, string> | undefined {
  const overrides: Record<string, string> = {};
  for (const entry of splitList(value)) {
    const separator = entry.indexOf('=');
    const host = entry.slice(0, separator).trim().toLowerCase();
    const ip = entry.slice(separator + 1).trim();
    if (separator <= 0 || !/^[a-z0-9.-]+$/.test(host) || isIP(ip) === 0) return undefined;
    overrides[host] = ip;
  }
  return overrides;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

function feesFrom(json: string | undefined): FeeSchedule {
  if (json === undefined) return DEFAULT_FEE_SCHEDULE;
  try {
    return parseFeeSchedule(JSON.parse(json));
  } catch (error) {
    throw new ConfigError(`Invalid PAYMENTS_FEES: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function restEndpoint(value: ValidatedEnv, mode: 'TEST' | 'LIVE'): RestChannelEndpointConfig {
  // The schema's .and() makes the key and the secret present whenever the URL is.
  return {
    baseUrl: value[`PAYMENTS_REST_CHANNEL_${mode}_URL`] ?? '',
    apiKey: value[`PAYMENTS_REST_CHANNEL_${mode}_KEY`] ?? '',
    callbackSecret: value[`PAYMENTS_REST_CHANNEL_${mode}_SECRET`] ?? '',
  };
}

function masterKeyFrom(hex: string | undefined, nodeEnv: string, dataDir: string): Buffer {
  if (hex) return Buffer.from(hex, 'hex');
  if (nodeEnv === 'production') throw new ConfigError('PAYMENTS_MASTER_KEY (64 hex characters) is required in production.');
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process (the admin CLI, a second start) wrote it first: use theirs.
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
