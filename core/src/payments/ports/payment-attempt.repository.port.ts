import type { AccountScope, Mode } from '../../common';
import { token } from '../../common';
import type { PaymentAttempt } from '../domain/payment-attempt.entity';

export interface PaymentAttemptRepository {
  /**
   * Stores a new attempt. An intent has at most one pending attempt, whatever writes them: a
   * pending attempt of an intent that has one already is ConcurrentUpdateError
   * (`pending_attempt_exists`), as is `update` to pending while another one is.
   */
  insert(attempt: PaymentAttempt): Promise<void>;
  /** The attempt of this merchant and mode, or undefined. */
  findById(scope: AccountScope, id: string): Promise<PaymentAttempt | undefined>;
  /**
   * The attempt with this id whatever its merchant: channels call back with our reference only,
   * and the callback's signature is what authorises it.
   */
  findByReference(id: string): Promise<PaymentAttempt | undefined>;
  /** The intent's pending attempt, if any (there is at most one). */
  findPending(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined>;
  /** The succeeded attempt that paid the intent, if any: never one marked `duplicateOf`. */
  findSucceeded(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined>;
  /** All of the intent's attempts, oldest first. */
  listForIntent(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt[]>;
  /**
   * Stores `attempt` over the version it was read at and returns it with the version raised.
   * Throws ConcurrentUpdateError (`concurrent_update`) when someone else changed it since.
   */
  update(attempt: PaymentAttempt): Promise<PaymentAttempt>;
  /** Attempts of any merchant and mode marked `duplicateOf` (payers who paid twice), latest success first. */
  listDuplicates(limit: number): Promise<PaymentAttempt[]>;
  /** Pending attempts of any merchant whose `nextCheckAt` has come, oldest first. */
  findDueForCheck(mode: Mode, now: Date, limit: number): Promise<PaymentAttempt[]>;
}
export const PaymentAttemptRepository = token<PaymentAttemptRepository>('PaymentAttemptRepository');
