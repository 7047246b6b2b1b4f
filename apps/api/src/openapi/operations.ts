/**
 * What the route table cannot say about each `/v1` route: its name, what it answers on success
 * and which errors it can add to the generic ones. Keyed by `METHOD path` exactly as Hapi lists
 * the route; a `/v1` route missing here is reported by the document test.
 */
export interface OperationInfo {
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  /** Success status and the component it answers with. */
  readonly success: { readonly status: number; readonly schema: string; readonly description: string; readonly alsoWith?: readonly number[] };
  /** Name given to the request body's schema in `components.schemas`. */
  readonly requestBody?: string;
  /** Statuses beyond the generic ones (400, 401, 403, 429, 500). */
  readonly errors?: readonly number[];
  /** Open route: no API key. */
  readonly open?: boolean;
}

const POST_ERRORS = [409, 413, 415, 422] as const;

export const OPERATIONS: Readonly<Record<string, OperationInfo>> = {
  'POST /v1/payment_intents': {
    operationId: 'createPaymentIntent',
    summary: 'Create a payment intent (the answer carries checkout_url; an identical retry replays it)',
    tag: 'Payment intents',
    success: { status: 201, schema: 'PaymentIntent', description: 'The payment intent.' },
    requestBody: 'PaymentIntentCreateParams',
    errors: POST_ERRORS,
  },
  'GET /v1/payment_intents': {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntentList', description: 'A page of payment intents.' },
  },
  'GET /v1/payment_intents/{id}': {
    operationId: 'retrievePaymentIntent',
    summary: 'Retrieve a payment intent',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent.' },
    errors: [404],
  },
  'POST /v1/payment_intents/{id}/cancel': {
    operationId: 'cancelPaymentIntent',
    summary: 'Cancel a payment intent that is created or requires_payment',
    tag: 'Payment intents',
    success: { status: 200, schema: 'PaymentIntent', description: 'The canceled payment intent.' },
    errors: [404, ...POST_ERRORS],
  },
  'POST /v1/payment_intents/{id}/attempts': {
    operationId: 'createPaymentAttempt',
    summary: 'Place an attempt at a channel (a pending attempt is answered again with 200)',
    tag: 'Payment attempts',
    success: { status: 201, schema: 'PaymentAttempt', description: 'The attempt, with its credential in next_action.', alsoWith: [200] },
    requestBody: 'PaymentAttemptCreateParams',
    errors: [402, 404, ...POST_ERRORS],
  },
  'GET /v1/payment_intents/{id}/attempts': {
    operationId: 'listPaymentAttempts',
    summary: "List an intent's attempts, oldest first",
    tag: 'Payment attempts',
    success: { status: 200, schema: 'PaymentAttemptList', description: 'Every attempt of the intent.' },
    errors: [404],
  },
  'POST /v1/test/payment_intents/{id}/simulate': {
    operationId: 'simulatePaymentIntent',
    summary: 'Test mode: tell the channel what to report, and wait for its callback',
    tag: 'Test helpers',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent as it stands once the callback landed.' },
    requestBody: 'PaymentIntentSimulateParams',
    errors: [404, ...POST_ERRORS],
  },
  'POST /v1/test/payment_intents/{id}/advance': {
    operationId: 'advancePaymentIntentClock',
    summary: 'Test mode: move a running timer (expiry or release) to now',
    tag: 'Test helpers',
    success: { status: 200, schema: 'PaymentIntent', description: 'The payment intent with the timer moved.' },
    requestBody: 'PaymentIntentAdvanceParams',
    errors: [404, ...POST_ERRORS],
  },
  'GET /v1/disputes': {
    operationId: 'listDisputes',
    summary: 'List disputes, newest first',
    tag: 'Disputes',
    success: { status: 200, schema: 'DisputeList', description: 'A page of disputes.' },
  },
  'GET /v1/disputes/{id}': {
    operationId: 'retrieveDispute',
    summary: 'Retrieve a dispute',
    tag: 'Disputes',
    success: { status: 200, schema: 'Dispute', description: 'The dispute.' },
    errors: [404],
  },
  'POST /v1/disputes/{id}/evidence': {
    operationId: 'submitDisputeEvidence',
    summary: 'Submit evidence, merged key by key into what the dispute holds',
    tag: 'Disputes',
    success: { status: 200, schema: 'Dispute', description: 'The dispute.' },
    requestBody: 'DisputeEvidenceParams',
    errors: [404, ...POST_ERRORS],
  },
  'POST /v1/settlements': {
    operationId: 'createSettlement',
    summary: 'Ask for a settlement now (merchants on the manual schedule)',
    tag: 'Settlements',
    success: { status: 201, schema: 'Settlement', description: 'The settlement.' },
    errors: POST_ERRORS,
  },
  'GET /v1/settlements': {
    operationId: 'listSettlements',
    summary: 'List settlements, newest first',
    tag: 'Settlements',
    success: { status: 200, schema: 'SettlementList', description: 'A page of settlements.' },
  },
  'GET /v1/settlements/{id}': {
    operationId: 'retrieveSettlement',
    summary: 'Retrieve a settlement',
    tag: 'Settlements',
    success: { status: 200, schema: 'Settlement', description: 'The settlement.' },
    errors: [404],
  },
  'GET /v1/balance': {
    operationId: 'retrieveBalance',
    summary: 'Retrieve the balance: available, pending and dispute_hold, per currency',
    tag: 'Balance',
    success: { status: 200, schema: 'Balance', description: 'The balance.' },
  },
  'GET /v1/fx/quotes': {
    operationId: 'retrieveFxQuote',
    summary: 'An indicative FX quote',
    tag: 'FX',
    success: { status: 200, schema: 'FxQuote', description: 'The quote.' },
  },
  'GET /v1/events': {
    operationId: 'listEvents',
    summary: 'List events of the key’s mode, newest first (the bodies webhooks deliver)',
    tag: 'Events',
    success: { status: 200, schema: 'EventList', description: 'A page of events.' },
  },
  'GET /v1/webhook_public_keys': {
    operationId: 'listWebhookPublicKeys',
    summary: 'The Ed25519 keys webhook v2 signatures are made with',
    tag: 'Webhooks',
    success: { status: 200, schema: 'WebhookPublicKeyList', description: 'The published keys.' },
  },
  'GET /v1/openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This document (no API key needed)',
    tag: 'Meta',
    success: { status: 200, schema: 'OpenApiDocument', description: 'The OpenAPI 3.1 document of /v1.' },
    open: true,
  },
};
