import type { CryptoProvider } from './crypto/crypto-provider.js';
import { WebCryptoProvider } from './crypto/web-crypto.js';
import { FetchHttpClient, type HttpClient, type HttpMethod } from './http/http-client.js';
import { RequestSender, type ApiResponse, type QueryValue, type RequestHookName, type RequestHooks, type ResponseInfo } from './http/request-sender.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './http/retry.js';
import { Disputes } from './resources/disputes.js';
import { BalanceTransactions } from './resources/balance-transactions.js';
import { Exports } from './resources/exports.js';
import { BalanceResource, Events, Fx, WebhookPublicKeys } from './resources/misc.js';
import { PaymentIntents } from './resources/payment-intents.js';
import { Refunds } from './resources/refunds.js';
import { Settlements } from './resources/settlements.js';
import { TestHelpers } from './resources/test-helpers.js';
import type { RequestOptions } from './types.js';
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
  /** Crypto operations (Idempotency-Keys, webhook signatures); default `node:crypto` in Node, WebCrypto elsewhere. */
  crypto?: CryptoProvider;
  /** Backoff between retries; default 0.5 s doubling to at most 8 s, with jitter. */
  backoff?: Partial<BackoffOptions>;
  /** Called after every successful call, with its request id; never receives the API key (`on('response')` sees every try). */
  onResponse?: (info: ResponseInfo) => void;
  /**
   * The merchant id (`mch_…`) the API key belongs to, as every event's `data.merchant` names it.
   * A webhook delivery verified by the platform's key (v2) must name this merchant (and the key's
   * mode), or it is refused. Without it, `webhooks.constructEventAsync` looks it up once (it reads
   * the first such delivery's event back with the key), and the synchronous `constructEvent`
   * refuses v2-only deliveries until then (`no_account`).
   */
  account?: string;
}

/** `rawRequest`'s parameters: the call's JSON body and query, and the per-call options. */
export interface RawRequestParams extends RequestOptions {
  /** Sent as JSON; not for GET. */
  body?: object;
  query?: Record<string, QueryValue>;
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
  /** Crypto of this build when the config names none: WebCrypto here, `node:crypto` in the Node build. */
  protected static defaultCrypto(): CryptoProvider {
    return new WebCryptoProvider();
  }
  /** The runtime the User-Agent names. */
  protected static readonly runtime: string = 'js';

  readonly paymentIntents: PaymentIntents;
  readonly refunds: Refunds;
  readonly disputes: Disputes;
  readonly settlements: Settlements;
  readonly balance: BalanceResource;
  readonly balanceTransactions: BalanceTransactions;
  /** CSV files of payment intents, settlements and balance transactions (docs/exports.md). */
  readonly exports: Exports;
  readonly fx: Fx;
  readonly events: Events;
  readonly webhookPublicKeys: WebhookPublicKeys;
  readonly testHelpers: TestHelpers;
  readonly webhooks: Webhooks;
  private readonly sender: RequestSender;

  /**
   * @param apiKey a secret key, `sk_test_…` or `sk_live_…`, or a restricted key, `rk_test_…` or `rk_live_…`
   *   (which reaches only what its permissions name; anything else is a `PermissionError`, code `insufficient_permissions`);
   *   or `undefined` for a client that only verifies webhooks by the endpoint secret (v1): its API
   *   methods reject with an `AuthenticationError` (`authentication_required`) before sending anything.
   */
  constructor(apiKey: string | undefined, config: PaymentsConfig = {}) {
    if (apiKey !== undefined && (typeof apiKey !== 'string' || !/^[sr]k_(test|live)_/.test(apiKey))) {
      // Never echo the value: it may be a live key pasted into the wrong place.
      throw new TypeError(
        'Payments needs an API key that starts with sk_test_ or sk_live_ (or, restricted, rk_test_ or rk_live_), or undefined for a client that only verifies webhooks by the endpoint secret.',
      );
    }
    if (config.account !== undefined && (typeof config.account !== 'string' || !/^mch_[A-Za-z0-9]+$/.test(config.account))) {
      throw new TypeError('account must be a merchant id, mch_….');
    }
    if (apiKey === undefined && config.account !== undefined) {
      throw new TypeError(
        "account needs an API key: a platform-key (v2) signature is checked against the key's mode too. Without a key, verify by the endpoint secret.",
      );
    }
    const crypto = config.crypto ?? new.target.defaultCrypto();
    const sender = new RequestSender({
      apiKey,
      baseUrl: config.baseUrl ?? 'http://localhost:4242',
      apiVersion: config.apiVersion === null ? undefined : (config.apiVersion ?? API_VERSION),
      maxNetworkRetries: nonNegative('maxNetworkRetries', config.maxNetworkRetries ?? 2),
      timeout: nonNegative('timeout', config.timeout ?? 30_000),
      httpClient: config.httpClient ?? new FetchHttpClient(),
      crypto,
      backoff: { ...DEFAULT_BACKOFF, ...config.backoff },
      userAgent: `payments-sdk-${new.target.runtime}/${VERSION}`,
    });
    sender.onResponse = config.onResponse;
    this.sender = sender;
    this.paymentIntents = new PaymentIntents(sender);
    this.refunds = new Refunds(sender);
    this.disputes = new Disputes(sender);
    this.settlements = new Settlements(sender);
    this.balance = new BalanceResource(sender);
    this.balanceTransactions = new BalanceTransactions(sender);
    this.exports = new Exports(sender);
    this.fx = new Fx(sender);
    this.events = new Events(sender);
    this.webhookPublicKeys = new WebhookPublicKeys(sender);
    this.testHelpers = new TestHelpers(sender);
    // Without a key there are no platform keys to fetch and no mode or merchant to hold a v2 delivery to: v1 only.
    this.webhooks =
      apiKey === undefined
        ? new Webhooks(crypto)
        : new Webhooks(crypto, () => this.webhookPublicKeys.list(), {
            mode: /^[sr]k_live_/.test(apiKey) ? 'live' : 'test',
            ...(config.account === undefined ? {} : { account: config.account }),
            fetchEvent: (id) => this.events.retrieve(id),
          });
  }

  /**
   * Calls `listener` for every try of every call: `'request'` before it is sent, `'response'`
   * when it ended, answered (`status`) or not (`error`), retries included. Listeners never see
   * the API key; one that throws is ignored.
   */
  on<Name extends RequestHookName>(name: Name, listener: (event: RequestHooks[Name]) => void): this {
    this.sender.on(name, listener);
    return this;
  }

  /** Stops calling a listener given to `on`. */
  off<Name extends RequestHookName>(name: Name, listener: (event: RequestHooks[Name]) => void): this {
    this.sender.off(name, listener);
    return this;
  }

  /**
   * Calls a route the SDK has no method for, with the client's key, version, retries, hooks and
   * Idempotency-Key (all but GET): `path` is the API path (`/v1/…`), `body` is sent as JSON.
   * Resolves to the parsed answer, with `lastResponse`; errors throw as their classes.
   */
  rawRequest<T = Record<string, unknown>>(method: HttpMethod, path: string, params: RawRequestParams = {}): Promise<ApiResponse<T>> {
    const { body, query, ...options } = params;
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
      throw new TypeError(`rawRequest: ${String(method)} is not GET, POST, PUT, PATCH or DELETE.`);
    // A path such as `//host/…` or `/../` would leave the API's base URL, and the key with it.
    if (typeof path !== 'string' || !/^\/(?!\/)/.test(path) || !this.sender.keepsToBase(path.slice(1))) {
      throw new TypeError('rawRequest: the path must be an API path such as /v1/balance.');
    }
    return this.sender.send<T>({ method, path: path.slice(1), ...(query ? { query } : {}), ...(body === undefined ? {} : { body }), options });
  }
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number of at least 0.`);
  return value;
}
