/*
 * What both builds export; each entry (index.ts for Node, web.ts for browsers, workers and Deno)
 * adds its own Payments, which differ only in their default crypto.
 */
export { API_VERSION, type PaymentsConfig, type RawRequestParams } from './client.js';
export * from './errors.js';
export * from './types.js';
export { type ListPromise, MAX_AUTO_PAGING_TO_ARRAY } from './pagination.js';
export { FetchHttpClient, type HttpClient, type HttpMethod, type HttpRequest, type HttpResponse } from './http/http-client.js';
export type { ApiResponse, RequestEvent, RequestHookName, RequestHooks, ResponseEvent, ResponseInfo } from './http/request-sender.js';
export type { BackoffOptions } from './http/retry.js';
export type { CryptoProvider, SyncCryptoProvider } from './crypto/crypto-provider.js';
export { WebCryptoProvider, type WebCrypto, type WebCryptoKey } from './crypto/web-crypto.js';
export {
  Webhooks,
  SIGNATURE_HEADER,
  STANDARD_HEADERS,
  DEFAULT_TOLERANCE_SECONDS,
  PLATFORM_KEYS_MAX_AGE_SECONDS,
  REMOVED_KEY_GRACE_SECONDS,
  type ConstructEventOptions,
  type HeaderGetter,
  type HeaderRecord,
  type PublicKeys,
  type RawBody,
  type SignatureHeaders,
  type TestHeaderOptions,
  type WebhookVerifier,
} from './webhooks.js';
export { VERSION } from './version.js';
export { parseExactJson, stringifyExactJson } from './http/exact-json.js';
export type { PaymentIntents, PaymentAttempts } from './resources/payment-intents.js';
export type { Refunds } from './resources/refunds.js';
export type { Disputes } from './resources/disputes.js';
export type { Settlements } from './resources/settlements.js';
export type { Exports } from './resources/exports.js';
export type { BalanceResource, Events, Fx, FxQuotes, WebhookPublicKeys } from './resources/misc.js';
export type { TestHelpers, TestPaymentIntents, TestRefunds } from './resources/test-helpers.js';
