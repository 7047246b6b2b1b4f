import { token } from '../../common';
import type { Notice } from '../domain/notice.entity';

/** Notices for the account's email, written with the change they tell of and sent later by the worker. */
export interface NoticeOutbox {
  /** Appends a notice; call it inside the unit of work of the change so both commit together. */
  append(notice: Notice): Promise<void>;
  /** Notices not sent yet, oldest first, at most `limit`. */
  pending(limit: number): Promise<Notice[]>;
  /** Records that the notice was handed to the email sender; false when it was marked already. */
  markSent(id: string, at: Date): Promise<boolean>;
  /** The merchant's notices, newest first (for tests and later routes). */
  listForMerchant(merchantId: string, limit: number): Promise<Notice[]>;
}
export const NoticeOutbox = token<NoticeOutbox>('NoticeOutbox');
