import type { Notice, NoticeOutbox } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryNoticeOutbox implements NoticeOutbox {
  constructor(private readonly store: InMemoryStore) {}

  append(notice: Notice): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.notices.some((row) => row.value.id === notice.id)) throw new Error(`Duplicate notice id ${notice.id}`);
      this.store.tables.notices.push({ seq: this.store.nextSequence(), value: deepCopy(notice) });
    });
  }

  pending(limit: number): Promise<Notice[]> {
    return this.store.atomic(() =>
      this.store.tables.notices
        .filter((row) => row.value.sentAt === undefined)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
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
    return this.store.atomic(() =>
      this.store.tables.notices
        .filter((row) => row.value.merchantId === merchantId)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }
}
