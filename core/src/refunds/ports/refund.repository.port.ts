import type { AccountScope, Mode, Page, PageRequest } from '../../common';
import { token } from '../../common';
import type { Refund, RefundStatus } from '../domain/refund.entity';

export interface RefundFilter {
  readonly status?: RefundStatus;
  /** Only the refunds of this payment intent. */
  readonly paymentIntentId?: string;
}

/** What an intent's refunds that did not fail add up to: the refunded amount and the merchant's debits. */
export interface IntentRefundTotals {
  /** In the intent's currency. */
  readonly refunded: number;
  /** In the settlement currency: the merchant's debits, and what the channel gave back. */
  readonly debited: number;
  readonly cleared: number;
}

export interface RefundRepository {
  insert(refund: Refund): Promise<void>;
  /** The refund of this merchant and mode, or undefined (another merchant's id included). */
  findById(scope: AccountScope, id: string): Promise<Refund | undefined>;
  /** Like `findById`, and locks the row until the unit of work ends. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Refund | undefined>;
  /** The refund of this id in `mode`, of any merchant: channel notices name our id and no merchant. */
  findForChannel(mode: Mode, id: string): Promise<Refund | undefined>;
  /** Stores the refund's new status, failure, channel id and times. */
  update(refund: Refund): Promise<void>;
  /** Sums over the intent's refunds that are not `failed` (zeros when it has none). */
  totalsForIntent(scope: AccountScope, paymentIntentId: string): Promise<IntentRefundTotals>;
  /** Newest first; `starting_after` naming no refund of this scope is CoreError `invalid_parameter`. */
  list(scope: AccountScope, filter: RefundFilter, page: PageRequest): Promise<Page<Refund>>;
  /**
   * Pending refunds of any merchant, created at or before `createdBefore`, whose next check
   * (`setNextCheck`) is unset or has come by `now`; oldest first. What the refund reconciler asks
   * the channels about.
   */
  findDueForCheck(query: { readonly mode: Mode; readonly createdBefore: Date; readonly now: Date; readonly limit: number }): Promise<Refund[]>;
  /** When the reconciler may ask about the refund again; touches nothing else of it. */
  setNextCheck(id: string, nextCheckAt: Date): Promise<void>;
}
export const RefundRepository = token<RefundRepository>('RefundRepository');
