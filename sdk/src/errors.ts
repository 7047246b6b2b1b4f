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

/** What the SDK keeps of the HTTP answer behind an object or an error: for logs and support. */
export interface LastResponse {
  /** The HTTP status. */
  readonly statusCode: number;
  /** Every header of the answer, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The id of the request in the service's logs; quote it when asking for help. */
  readonly requestId: string | undefined;
  /** The Idempotency-Key the call sent (POSTs), the same on every try. */
  readonly idempotencyKey: string | undefined;
  /** How many tries the call took (1 when it needed no retry). */
  readonly attempts: number;
}

/**
 * Marks an SDK error with the `type` of its class and of every class above it. `instanceof` reads
 * it when the prototype chain says no, which happens when two copies of the SDK are loaded (the
 * ES module and the CommonJS build in one process, or two bundles): an error of one copy is then
 * still an instance of the other copy's class of the same type.
 */
const LINEAGE = Symbol.for('@payments/sdk.error-lineage');

/**
 * Base of every error the SDK throws; `instanceof PaymentsError` catches them all. Each class
 * names itself in a static `type` (the instance's `type` and `name`), written out rather than
 * taken from the class's name, which minifiers rename.
 */
export class PaymentsError extends Error {
  static readonly type: string = 'PaymentsError';

  readonly code: string | undefined;
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;
  readonly param: string | undefined;
  /** The HTTP answer this error was made from, when one arrived (not enumerable: logs of the error stay as they were). */
  declare readonly lastResponse?: LastResponse;

  constructor(fields: PaymentsErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    const lineage: string[] = [];
    for (let level: unknown = new.target; typeof level === 'function' && level !== Error; level = Object.getPrototypeOf(level)) {
      const type: unknown = Object.prototype.hasOwnProperty.call(level, 'type') ? Reflect.get(level, 'type') : undefined;
      if (typeof type === 'string') lineage.push(type);
    }
    this.name = lineage[0] ?? 'PaymentsError';
    Object.defineProperty(this, LINEAGE, { value: lineage, enumerable: false });
    this.code = fields.code;
    this.statusCode = fields.statusCode;
    this.requestId = fields.requestId;
    this.param = fields.param;
  }

  /** The class's `type`: `'NotFoundError'`, `'SignatureVerificationError'` … (stable across minification and copies of the SDK). */
  get type(): string {
    return this.name;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    // Only the SDK's own classes answer for other copies; a subclass of the caller's is not theirs.
    if (!Object.prototype.hasOwnProperty.call(this, 'type')) return false;
    const lineage: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, LINEAGE) : undefined;
    return Array.isArray(lineage) && lineage.includes(this.type);
  }
}

/** 400: a parameter is missing or wrong (`param` names it). */
export class InvalidRequestError extends PaymentsError {
  static override readonly type: string = 'InvalidRequestError';
}
/** 401: the API key is missing or not valid. */
export class AuthenticationError extends PaymentsError {
  static override readonly type: string = 'AuthenticationError';
}
/** 402: the channel refused the payment (the failed attempt stays in the intent's history). */
export class PaymentFailedError extends PaymentsError {
  static override readonly type: string = 'PaymentFailedError';
}
/** 403: the key may not do this (live mode not open, a restricted key without the permission (`insufficient_permissions`, `param` names it), settlement on a schedule, test-only route …). */
export class PermissionError extends PaymentsError {
  static override readonly type: string = 'PermissionError';
}
/** 404: no such object for this key. */
export class NotFoundError extends PaymentsError {
  static override readonly type: string = 'NotFoundError';
}
/** 409: conflicts with the object's state or another request (`code` says which). */
export class ConflictError extends PaymentsError {
  static override readonly type: string = 'ConflictError';
}
/** 422: the Idempotency-Key was used before with a different request. */
export class IdempotencyError extends PaymentsError {
  static override readonly type: string = 'IdempotencyError';
}
/** 429: too many requests; retried automatically, honouring `retryAfter`. */
export class RateLimitError extends PaymentsError {
  static override readonly type: string = 'RateLimitError';
  /** Seconds the API asked to wait, from Retry-After. */
  readonly retryAfter: number | undefined;
  constructor(fields: PaymentsErrorFields) {
    super(fields);
    this.retryAfter = fields.retryAfter;
  }
}
/** 5xx or an answer that is not the API's: retried automatically; safe to retry with the same key. */
export class ApiError extends PaymentsError {
  static override readonly type: string = 'ApiError';
}
/** The API could not be reached or did not answer in time (no HTTP status). */
export class ApiConnectionError extends PaymentsError {
  static override readonly type: string = 'ApiConnectionError';
}
/** The call's `signal` was aborted: nothing more is sent (`cause` is the signal's reason). A POST may have reached the API; retry it with the same idempotencyKey. */
export class RequestAbortedError extends PaymentsError {
  static override readonly type: string = 'RequestAbortedError';
}
/** A webhook's signature did not verify; `reason` says why. */
export class SignatureVerificationError extends PaymentsError {
  static override readonly type: string = 'SignatureVerificationError';
  readonly reason: SignatureFailureReason;
  constructor(reason: SignatureFailureReason, message: string) {
    super({ message, code: reason });
    this.reason = reason;
  }
}

/**
 * Why a delivery was refused. `wrong_account` and `wrong_mode`: validly signed by a platform key,
 * but for another merchant or the other mode (a delivery captured elsewhere and replayed here);
 * `no_account`: platform-key verification by a client that does not know its merchant id.
 */
export type SignatureFailureReason =
  | 'malformed_header'
  | 'no_signature'
  | 'no_verifier'
  | 'invalid_secret'
  | 'wrong_secret'
  | 'body_changed'
  | 'unknown_key_id'
  | 'timestamp_outside_tolerance'
  | 'wrong_account'
  | 'wrong_mode'
  | 'no_account';

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
