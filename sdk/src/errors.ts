/** What the API says about a failed request: `{error: {code, message, param?, request_id}}`. */
export interface ApiErrorBody {
  code?: string;
  message?: string;
  param?: string;
  request_id?: string;
}

export interface PaymentsErrorFields {
  message: string;
  /** The stable code to branch on (`merchant_order_id_taken`, `idempotency_key_in_use` …). */
  code?: string;
  /** The HTTP status, when the API answered. */
  statusCode?: number;
  /** The id of the request in the service's logs; quote it when asking for help. */
  requestId?: string;
  /** The parameter at fault, for invalid requests. */
  param?: string;
  /** Retry-After of a 429, in seconds. */
  retryAfter?: number;
  cause?: unknown;
}

/** Base of every error the SDK throws; `instanceof PaymentsError` catches them all. */
export class PaymentsError extends Error {
  readonly code: string | undefined;
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;
  readonly param: string | undefined;

  constructor(fields: PaymentsErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    this.code = fields.code;
    this.statusCode = fields.statusCode;
    this.requestId = fields.requestId;
    this.param = fields.param;
  }
}

/** 400: a parameter is missing or wrong (`param` names it). */
export class InvalidRequestError extends PaymentsError {}
/** 401: the API key is missing or not valid. */
export class AuthenticationError extends PaymentsError {}
/** 402: the channel refused the payment (the failed attempt stays in the intent's history). */
export class PaymentFailedError extends PaymentsError {}
/** 403: the key may not do this (live mode not open, settlement on a schedule, test-only route …). */
export class PermissionError extends PaymentsError {}
/** 404: no such object for this key. */
export class NotFoundError extends PaymentsError {}
/** 409: conflicts with the object's state or another request (`code` says which). */
export class ConflictError extends PaymentsError {}
/** 422: the Idempotency-Key was used before with a different request. */
export class IdempotencyError extends PaymentsError {}
/** 429: too many requests; retried automatically, honouring `retryAfter`. */
export class RateLimitError extends PaymentsError {
  /** Seconds the API asked to wait, from Retry-After. */
  readonly retryAfter: number | undefined;
  constructor(fields: PaymentsErrorFields) {
    super(fields);
    this.retryAfter = fields.retryAfter;
  }
}
/** 5xx or an answer that is not the API's: retried automatically; safe to retry with the same key. */
export class ApiError extends PaymentsError {}
/** The API could not be reached or did not answer in time (no HTTP status). */
export class ApiConnectionError extends PaymentsError {}
/** A webhook's signature did not verify; `reason` says why. */
export class SignatureVerificationError extends PaymentsError {
  readonly reason: SignatureFailureReason;
  constructor(reason: SignatureFailureReason, message: string) {
    super({ message, code: reason });
    this.reason = reason;
  }
}

export type SignatureFailureReason =
  'malformed_header' | 'no_signature' | 'no_verifier' | 'invalid_secret' | 'wrong_secret' | 'body_changed' | 'unknown_key_id' | 'timestamp_outside_tolerance';

/** The error class of an HTTP error status. */
export function errorFromResponse(statusCode: number, body: ApiErrorBody | undefined, requestId: string | undefined, retryAfter?: number): PaymentsError {
  const fields: PaymentsErrorFields = {
    message: body?.message ?? `The API answered ${statusCode}.`,
    code: body?.code,
    statusCode,
    requestId: body?.request_id ?? requestId,
    param: body?.param,
    retryAfter,
  };
  switch (statusCode) {
    case 400:
    case 413:
    case 415:
      return new InvalidRequestError(fields);
    case 401:
      return new AuthenticationError(fields);
    case 402:
      return new PaymentFailedError(fields);
    case 403:
      return new PermissionError(fields);
    case 404:
    case 410:
      return new NotFoundError(fields);
    case 409:
      return new ConflictError(fields);
    case 422:
      return new IdempotencyError(fields);
    case 429:
      return new RateLimitError(fields);
    default:
      return statusCode >= 400 && statusCode < 500 ? new InvalidRequestError(fields) : new ApiError(fields);
  }
}
