import { CoreError } from '@payments/core';
import { isRetryableTransactionError } from './sql-errors';

export interface TransactionRetryOptions {
  /** How many times a transaction is run again after the database gave it up for contention (default 5). */
  readonly maxRetries?: number;
  /** First backoff in ms; doubles each retry, with full jitter (default 20). */
  readonly baseDelayMs?: number;
}

/**
 * A transaction the database kept giving up for contention (deadlocks, a cluster's certification
 * failures, rows another transaction kept changing) after every retry. Nothing of it committed:
 * 503 `api_error`, and the same request may succeed a moment later.
 */
export class ContendedTransactionError extends CoreError {
  constructor(cause: unknown) {
    super(
      'api_error',
      'unavailable',
      'The database is busy with concurrent changes of the same objects; retry shortly. Retrying with the same Idempotency-Key is safe.',
      {
        retryAfterSeconds: 1,
        cause,
      },
    );
    this.name = 'ContendedTransactionError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one retry policy of the SQL storage: runs `transaction` (a whole transaction, or a statement
 * that commits on its own) again while it fails with an error `isRetryableTransactionError` names,
 * after a jittered backoff that doubles each time, at most `maxRetries` times; then
 * ContendedTransactionError. Any other error is the caller's at once.
 */
export async function runRetrying<T>(options: TransactionRetryOptions, transaction: () => Promise<T>): Promise<T> {
  const maxRetries = options.maxRetries ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 20;
  for (let retry = 0; ; retry += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
      if (retry >= maxRetries) throw new ContendedTransactionError(error);
      await sleep(Math.random() * baseDelayMs * 2 ** retry);
    }
  }
}
