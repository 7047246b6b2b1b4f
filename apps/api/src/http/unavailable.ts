import { CoreError, isCoreError } from '@payments/core';
import { ContendedTransactionError, isDatabaseUnavailableError, isRetryableTransactionError } from '@payments/storage-sql';

/**
 * Seconds a caller should wait before retrying while the database is unreachable: a restart or a
 * fail-over takes a few seconds, and clients that honour Retry-After (the SDK does) should not
 * hammer a database that is coming back.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The one place a failure of a shared dependency becomes "unavailable, retry later" (503
 * `api_error` with Retry-After) instead of a 500. Redis failures arrive as CoreError `unavailable`
 * already (locks-redis wraps every command); database failures arrive as driver or pool errors,
 * recognised by storage-sql. A transaction the database gave up for contention (a deadlock, a
 * cluster's certification failure) that reached here ran outside storage-sql's retry, which every
 * transaction of ours goes through: nothing of it committed, so it is the same 503 a retried one
 * ends with. Anything else is not an outage: undefined, and the caller treats it as
 * the bug it is. Used by the HTTP error extension and by the worker's scheduler.
 */
export function unavailableOf(error: unknown): CoreError | undefined {
  if (isCoreError(error)) return error.category === 'unavailable' ? error : undefined;
  if (isDatabaseUnavailableError(error)) {
    return new CoreError('api_error', 'unavailable', 'The database is unavailable; retry shortly. Retrying with the same Idempotency-Key is safe.', {
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  if (isRetryableTransactionError(error)) return new ContendedTransactionError(error);
  return undefined;
}
