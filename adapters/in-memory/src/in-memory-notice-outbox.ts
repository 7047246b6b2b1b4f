import type { Notice, NoticeOutbox } from '@payments/core';
import { copiesOf, newestFirst, oldestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryNoticeOutbox implements NoticeOutbox {
  constructor(private readonly store: InMemoryStore) {}

  append(notice: Notice): Promise<void> {
    return this.store.atomic(() => {
      this.store.appendRow(this.store.tables.notices, notice, 'notice');
    });
  }

  pending(limit: number): Promise<Notice[]> {
    return this.store.atomic(() => copiesOf(this.store.tables.notices.filter((row) => row.value.sentAt === undefined).sort(oldestFirst), limit));
  }

  markSent(id: string, at: Date): Promise<boolean> {
    return this.store.atomic(() => {
      const notices = this.store.tables.notices;
      const index = notices.findIndex((row) => row.value.id === id && row.value.sentAt === undefined);
      const row = notices[index];
      if (!row) return false;
      notices[index] = { ...row, value: { ...row.value, sentAt: new Date(at.getTime()) } };
      return true;
    });
  }

  listForMerchant(merchantId: string, limit: number): Promise<Notice[]> {
    return this.store.atomic(() => copiesOf(this.store.tables.notices.filter((row) => row.value.merchantId === merchantId).sort(newestFirst), limit));
  }
}
