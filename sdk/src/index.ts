export { Payments, API_VERSION, type PaymentsConfig } from './client.js';
export * from './errors.js';
export * from './types.js';
export { type ListPromise, MAX_AUTO_PAGING_TO_ARRAY } from './pagination.js';
export { FetchHttpClient, type HttpClient, type HttpRequest, type HttpResponse } from './http/http-client.js';
export type { ResponseInfo } from './http/request-sender.js';
export type { BackoffOptions } from './http/retry.js';
export type { CryptoProvider } from './crypto/crypto-provider.js';
export { NodeCryptoProvider } from './crypto/node-crypto.js';
export {
  Webhooks,
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type ConstructEventOptions,
  type PublicKeys,
  type TestHeaderOptions,
  type WebhookVerifier,
} from './webhooks.js';
export { VERSION } from './version.js';
export { parseExactJson, stringifyExactJson } from './http/exact-json.js';
export type { PaymentIntents, PaymentAttempts } from './resources/payment-intents.js';
export type { Refunds } from './resources/refunds.js';
export type { Disputes } from './resources/disputes.js';
export type { Settlements } from './resources/settlements.js';
export type { BalanceResource, Events, Fx, FxQuotes, WebhookPublicKeys } from './resources/misc.js';
export type { TestHelpers, TestPaymentIntents, TestRefunds } from './resources/test-helpers.js';

import { Payments } from './client.js';
export default Payments;
