import type { CryptoProvider } from './crypto/crypto-provider.js';
import { NodeCryptoProvider } from './crypto/node-crypto.js';
import { FetchHttpClient, type HttpClient } from './http/http-client.js';
import { RequestSender, type ResponseInfo } from './http/request-sender.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './http/retry.js';
import { Disputes } from './resources/disputes.js';
import { BalanceResource, Events, Fx, WebhookPublicKeys } from './resources/misc.js';
import { PaymentIntents } from './resources/payment-intents.js';
import { Refunds } from './resources/refunds.js';
import { Settlements } from './resources/settlements.js';
import { TestHelpers } from './resources/test-helpers.js';
import { VERSION } from './version.js';
import { Webhooks } from './webhooks.js';

/** The API version this SDK's types describe. */
export const API_VERSION = '2026-09-01';

export interface PaymentsConfig {
  /** Where the API listens; default `http://localhost:4242` (what `npm start` serves). */
  baseUrl?: string;
  /**
   * The `Api-Version` sent with every request. Default: the version these types describe
   * (`2026-09-01`); pass `null` to send none and get the account's pinned version.
   */
  apiVersion?: string | null;
  /** Retries after the first try, for connection errors, 409 idempotency_key_in_use, 429 and 5xx; default 2. */
  maxNetworkRetries?: number;
  /** Milliseconds one try may take, answer body included; default 30 000. */
  timeout?: number;
  /** How to send HTTP; default the global `fetch`. */
  httpClient?: HttpClient;
  /** Crypto operations (Idempotency-Keys, webhook signatures); default `node:crypto`. */
  crypto?: CryptoProvider;
  /** Backoff between retries; default 0.5 s doubling to at most 8 s, with jitter. */
  backoff?: Partial<BackoffOptions>;
  /** Called after every answered call, with its request id; never receives the API key. */
  onResponse?: (info: ResponseInfo) => void;
}

/**
 * The client of the payment service API.
 *
 * ```ts
 * const payments = new Payments(process.env.PAYMENTS_KEY!, { baseUrl: 'http://localhost:4242' });
 * const intent = await payments.paymentIntents.create({ amount: 12345, currency: 'THB', merchant_order_id: 'order-1' });
 * ```
 */
export class Payments {
  readonly paymentIntents: PaymentIntents;
  readonly refunds: Refunds;
  readonly disputes: Disputes;
  readonly settlements: Settlements;
  readonly balance: BalanceResource;
  readonly fx: Fx;
  readonly events: Events;
  readonly webhookPublicKeys: WebhookPublicKeys;
  readonly testHelpers: TestHelpers;
  readonly webhooks: Webhooks;

  /**
   * @param apiKey a secret key, `sk_test_…` or `sk_live_…`
   */
  constructor(apiKey: string, config: PaymentsConfig = {}) {
    if (typeof apiKey !== 'string' || !/^sk_(test|live)_/.test(apiKey)) {
      // Never echo the value: it may be a live key pasted into the wrong place.
      throw new TypeError('Payments needs an API key that starts with sk_test_ or sk_live_.');
    }
    const crypto = config.crypto ?? new NodeCryptoProvider();
    const sender = new RequestSender({
      apiKey,
      baseUrl: config.baseUrl ?? 'http://localhost:4242',
      apiVersion: config.apiVersion === null ? undefined : (config.apiVersion ?? API_VERSION),
      maxNetworkRetries: nonNegative('maxNetworkRetries', config.maxNetworkRetries ?? 2),
      timeout: nonNegative('timeout', config.timeout ?? 30_000),
      httpClient: config.httpClient ?? new FetchHttpClient(),
      crypto,
      backoff: { ...DEFAULT_BACKOFF, ...config.backoff },
      userAgent: `payments-sdk-node/${VERSION}`,
    });
    sender.onResponse = config.onResponse;
    this.paymentIntents = new PaymentIntents(sender);
    this.refunds = new Refunds(sender);
    this.disputes = new Disputes(sender);
    this.settlements = new Settlements(sender);
    this.balance = new BalanceResource(sender);
    this.fx = new Fx(sender);
    this.events = new Events(sender);
    this.webhookPublicKeys = new WebhookPublicKeys(sender);
    this.testHelpers = new TestHelpers(sender);
    this.webhooks = new Webhooks(crypto, () => this.webhookPublicKeys.list());
  }
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number of at least 0.`);
  return value;
}
