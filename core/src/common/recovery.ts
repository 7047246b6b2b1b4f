import type { Transaction } from './unit-of-work.port';

/**
 * Where a retried request picks up (docs/idempotency.md, "Recovery points"). Work that calls
 * something outside (a channel) between two transactions binds the object its first transaction
 * made to the request's Idempotency-Key, in that same transaction; from its commit on the key is
 * never forgotten, and a retry of the request resumes with that object instead of making another.
 */
export interface Recovery {
  /** The object an earlier try of this request bound to its key: finish it, or answer it as it stands. */
  readonly resume?: string;
  /**
   * Binds `id` to the request's key, inside `transaction`, the unit of work that makes the object
   * (it commits or rolls back with the object). Throws when the key was taken over meanwhile,
   * which rolls the work back.
   */
  bind(id: string, transaction: Transaction): Promise<void>;
  /**
   * The transaction the work runs in, with its key's claim and answer, when the route is
   * storage-only (`transactional`): the work binds its use cases to it, so that they join it.
   */
  readonly transaction?: Transaction;
}
