/**
 * What kind of refusal an error is. The HTTP layer maps each category to one status; core never
 * speaks HTTP.
 */
export type ErrorCategory =
  | 'validation' // the caller sent something we refuse (400)
  | 'authentication' // no usable credential (401)
  | 'payment_failed' // the channel refused the payment (402)
  | 'forbidden' // the credential may not do this (403)
  | 'not_found' // no such object for this merchant and mode (404)
  | 'conflict' // the object's state or a uniqueness rule refuses the change (409)
  | 'gone' // the object existed but expired (410)
  | 'too_large' // the request body is over the limit (413)
  | 'unsupported' // the request body is of a type we do not read (415)
  | 'idempotency_mismatch' // an idempotency key reused with another request (422)
  | 'rate_limited' // too many requests (429)
  | 'unavailable' // a dependency is down; safe to retry later (503)
  | 'internal'; // a bug (500)

export interface CoreErrorOptions {
  /** The offending field, as the caller named it (`amount`, `metadata.order`, `Idempotency-Key`). */
  param?: string;
  /** For `rate_limited` and `unavailable`: when a retry may succeed. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error type core raises. `code` is the stable API error code merchants branch on
 * (`merchant_order_id_taken`); `message` is for a person and may change.
 */
export class CoreError extends Error {
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    readonly category: ErrorCategory,
    message: string,
    options: CoreErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CoreError';
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Raised when a field breaks a rule: 400 `invalid_parameter` unless a more precise code exists. */
export function invalidParameter(param: string, message: string, code = 'invalid_parameter'): CoreError {
  return new CoreError(code, 'validation', message, { param });
}

/** Raised when the object does not exist for this merchant and mode (another merchant's object included). */
export function notFound(what: string, id: string, param = 'id'): CoreError {
  return new CoreError('resource_not_found', 'not_found', `No such ${what}: '${id}'.`, { param });
}

/**
 * Raised by `LockManager.withLock` when the lock stayed held past `waitMs`. To an API caller it
 * is a 503 `api_error` worth retrying; a background job can tell it apart and skip its turn.
 */
export class LockBusyError extends CoreError {
  constructor() {
    super('api_error', 'unavailable', 'The resource is busy with another request; retry shortly.', { retryAfterSeconds: 1 });
    this.name = 'LockBusyError';
  }
}

/**
 * A write the storage refused because another transaction changed what this one read: a version
 * check that found a newer version, a guard's unique key (the intent's one pending attempt, one
 * default payout destination, a period's batch) that another transaction filled, a conditional
 * mark that another settlement made. Inside a unit of work it is not an answer: the unit of work
 * runs the work again, which reads what the other transaction committed and answers as a request
 * that came second would (the pending attempt, `nothing_to_settle`, `invalid_state_transition` …).
 * Outside one, or when the retries run out, it is what it says (409 `concurrent_update`, or the
 * guard's own code).
 */
export class ConcurrentUpdateError extends CoreError {
  constructor(message: string, code = 'concurrent_update') {
    super(code, 'conflict', message);
    this.name = 'ConcurrentUpdateError';
  }
}

export function isCoreError(error: unknown): error is CoreError {
  return error instanceof CoreError;
}
