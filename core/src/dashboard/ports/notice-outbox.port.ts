import { token } from '../../common';
import type { Notice } from '../domain/notice.entity';

/** Notices for the account's email, written with the change they tell of and sent later by the worker. */
export interface NoticeOutbox {
  /** Appends a notice; call it inside the unit of work of the change so both commit together. */
  append(notice: Notice): Promise<void>;
  /** Notices not sent yet, oldest first, at most `limit`. */
  pending(limit: number): Promise<Notice[]>;
  /**
   * Leases an unsent notice for sending until `leaseUntil`: true when it was free (never leased,
   * or its lease ran out by `now`), false when it is sent or another lease runs. A conditional
   * write, so of two workers running the job at once (its lock taken twice) one sends it; one that
   * dies holding it leaves it to a pass after the lease.
   */
  claim(id: string, now: Date, leaseUntil: Date): Promise<boolean>;
  /** Gives up the lease `claim` took until `leaseUntil` (the sender refused): the notice is free again at once. */
  release(id: string, leaseUntil: Date): Promise<void>;
  /** Records that the notice was handed to the email sender; false when it was marked already. */
  markSent(id: string, at: Date): Promise<boolean>;
  /** The merchant's notices, newest first (for tests and later routes). */
  listForMerchant(merchantId: string, limit: number): Promise<Notice[]>;
}
export const NoticeOutbox = token<NoticeOutbox>('NoticeOutbox');
