import { CoreError, type ErrorCategory } from '@payments/core';

const STATUS_BY_CATEGORY: Readonly<Record<ErrorCategory, number>> = {
  validation: 400,
  authentication: 401,
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported: 415,
  idempotency_mismatch: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export function httpStatusOf(error: CoreError): number {
  return STATUS_BY_CATEGORY[error.category];
}

export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly param?: string;
    readonly request_id: string;
  };
}

/** The one error shape every route answers with: `{error: {code, message, param?, request_id}}`. */
export function errorBody(error: CoreError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      request_id: requestId,
    },
  };
}

/** What a failure outside core (a bug, a driver error) looks like to the caller: nothing internal. */
export function internalError(cause: unknown): CoreError {
  return new CoreError(
    'api_error',
    'internal',
    'Something went wrong on our side; it has been logged. Retrying the request with the same Idempotency-Key is safe.',
    {
      cause,
    },
  );
}
