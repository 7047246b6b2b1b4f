/** The statuses a `/v1` error answers with, in order. */
export const ERROR_STATUSES = [400, 401, 402, 403, 404, 409, 413, 415, 422, 429, 500, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** The `error.code` values an operation can answer, by status: what a caller branches on. */
export type ErrorCodes = { readonly [S in ErrorStatus]?: readonly ErrorCode[] };

/**
 * Every `error.code` of the merchant API and what it means to a caller, whatever the route. The
 * document lists under each of an operation's error statuses the codes it can answer, each with
 * its line from here; what a code means for one route (which status, which rule) is in that
 * route's description.
 */
export const ERROR_CODE_MEANINGS = {
  invalid_parameter:
    'A field, query parameter or header breaks a rule: `param` names it (`amount`, `metadata.order`, `Idempotency-Key`) and `message` says which rule.',
  invalid_request: 'The request is malformed where no one field is at fault: a body that is not a JSON object, a query string or path that does not parse.',
  invalid_json: 'The body is not valid JSON.',
  invalid_api_version: 'The Api-Version header is not a date such as 2026-09-01.',
  idempotency_key_required: 'A POST without an Idempotency-Key header; send a fresh key (a UUID, say) with each new request.',
  invalid_return_url: '`return_url` is not an absolute https URL on a public host name (no IP literal, no localhost), or is longer than 2048 characters.',
  unsupported_currency_pair: 'No rate is known between the two currencies.',
  authentication_required:
    'No API key, a malformed one, or one that is unknown or revoked: send `Authorization: Bearer sk_test_…` or `sk_live_…` (a restricted key: `rk_test_…` or `rk_live_…`).',
  payment_failed:
    'The channel refused the payment; the failed attempt stays in the intent’s attempts with its `failure_code`, and another attempt may be placed.',
  live_not_enabled: 'A live key of an account whose live mode is not open (before review, or closed since).',
  insufficient_permissions:
    'A restricted key (`rk_…`) without the permission this operation needs (its `x-permission`): `param` and `message` name it (`refunds:write`). Refused before anything else is read or done.',
  test_mode_required: 'A test helper called with a live key: only test-mode objects can be simulated or moved in time.',
  forbidden: 'This account may not do this: only accounts on the manual settlement schedule may ask for a settlement.',
  resource_not_found: 'No such object for this key: unknown, another merchant’s, or of the other mode (test and live never see each other’s objects).',
  invalid_state_transition: 'The object’s status does not allow this; `message` names the status it is in.',
  merchant_order_id_taken: '`merchant_order_id` is used by another payment intent of this merchant in this mode.',
  simulation_unsupported: 'The channel that took this payment cannot be told what to report (only the test-mode simulator can).',
  refund_exceeds_remaining: 'The refund is more than what is left to refund of the payment (or a lost dispute already took the payment back).',
  payment_disputed: 'The payment has an open dispute; it cannot be refunded until the dispute is ruled.',
  dispute_closed: 'The dispute is ruled (won or lost); it takes no more evidence.',
  nothing_to_settle: 'Nothing is available to settle: no released payment waits and the available balance is not above zero.',
  insufficient_available_balance: 'Refunds or lost disputes overdrew the available balance; the payments wait until new ones cover it.',
  settlement_conflict: 'Another settlement of this account was made at the same moment; read the settlements and retry if nothing covers the payments.',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still running; retry with the same key after Retry-After seconds.',
  request_too_large: 'The body is larger than 64 KiB.',
  unsupported_media_type: 'The body is not `application/json`.',
  idempotency_key_reused: 'This Idempotency-Key was used with another request (another method, path or body); use a fresh key for a new request.',
  rate_limited: 'Too many requests for this key; retry after Retry-After seconds.',
  api_error:
    'On 500, a fault of the service (logged; retrying with the same Idempotency-Key is safe). On 503, a dependency (database, Redis, a rate source) is unreachable for now; retry after Retry-After seconds with the same Idempotency-Key.',
  channel_error: 'The payment channel is unreachable or answered about something else; retry after Retry-After seconds with the same Idempotency-Key.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODE_MEANINGS;

/** What a route that validates what it is sent (a path, a query, a body, an Idempotency-Key) adds. */
export const VALIDATED_ERROR_CODES: ErrorCodes = { 400: ['invalid_parameter'] };

/** What any `/v1` route called with an API key can answer, whatever it does. */
export const GENERIC_ERROR_CODES: ErrorCodes = {
  400: ['invalid_request', 'invalid_api_version'],
  401: ['authentication_required'],
  403: ['live_not_enabled', 'insufficient_permissions'],
  429: ['rate_limited'],
  500: ['api_error'],
  503: ['api_error'],
};

/** What every POST adds: the body and its Idempotency-Key. */
export const POST_ERROR_CODES: ErrorCodes = {
  400: ['invalid_json', 'idempotency_key_required'],
  409: ['idempotency_key_in_use'],
  413: ['request_too_large'],
  415: ['unsupported_media_type'],
  422: ['idempotency_key_reused'],
};

/** What an open route (no API key) can answer. */
export const OPEN_ERROR_CODES: ErrorCodes = { 500: ['api_error'] };

/** The tables merged: the statuses in order, each with its codes once each, in the order first given. */
export function mergeErrorCodes(...tables: readonly ErrorCodes[]): Map<ErrorStatus, ErrorCode[]> {
  const merged = new Map<ErrorStatus, ErrorCode[]>();
  for (const status of ERROR_STATUSES) {
    const codes = [...new Set(tables.flatMap((table) => table[status] ?? []))];
    if (codes.length > 0) merged.set(status, codes);
  }
  return merged;
}
