import { isBoom, type Boom } from '@hapi/boom';
import { CoreError, isCoreError } from '@payments/core';
import { internalError } from './error-envelope';
import { DATABASE_RETRY_AFTER_SECONDS, unavailableOf } from './unavailable';

/**
 * Hapi and its plugins answer with Boom errors (unknown route, body too large, wrong content
 * type, unreadable JSON). This turns each into the CoreError the envelope renders, so no route
 * ever answers in Hapi's own error format; a thrown driver error of an unreachable dependency
 * becomes 503 `api_error` with Retry-After (see `unavailableOf`).
 */
export function toCoreError(error: Boom | Error): CoreError {
  if (isCoreError(error)) return error;
  // A database or Redis outage is a 503 the caller may retry, not a bug.
  if (!isBoom(error)) return unavailableOf(error) ?? internalError(error);
  switch (error.output.statusCode) {
    case 400:
      return badRequest(error);
    case 401:
      return new CoreError('authentication_required', 'authentication', 'Send your secret API key as `Authorization: Bearer sk_test_…`.');
    case 403:
      return new CoreError('forbidden', 'forbidden', 'This credential may not do that.');
    case 404:
      return new CoreError('resource_not_found', 'not_found', 'No such route; check the method and path against the API reference.');
    case 405:
      return new CoreError('resource_not_found', 'not_found', 'This route does not take that method.');
    case 413:
      return new CoreError('request_too_large', 'too_large', 'The request body is larger than 64 KiB.');
    case 415:
      return unsupportedMediaType();
    case 503:
      // Hapi's own: the route's server timeout ran out (see `requestTimeoutMs`).
      return new CoreError(
        'api_error',
        'unavailable',
        'The request took too long, most likely because the database is not answering; retry shortly. Retrying with the same Idempotency-Key is safe.',
        { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
      );
    default:
      return unavailableOf(error) ?? internalError(error);
  }
}

/** Hapi's own 400s are about the request as a whole, not one field: each gets a code of its own. */
function badRequest(boom: Boom): CoreError {
  const message = boom.output.payload.message ?? '';
  if (/content-type/i.test(message)) return unsupportedMediaType();
  if (/payload/i.test(message)) return new CoreError('invalid_json', 'validation', 'The request body is not valid JSON.');
  return new CoreError('invalid_request', 'validation', 'The request is malformed.');
}

function unsupportedMediaType(): CoreError {
  return new CoreError('unsupported_media_type', 'unsupported', 'Send the request body as application/json.');
}
