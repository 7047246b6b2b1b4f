import type { Notice, NoticeOutbox } from '@payments/core';
import { copiesOf, newestFirst, oldestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryNoticeOutbox implements NoticeOutbox {
  /** The SQL schema's `locked_until`: no field of the entity, so kept beside it. */
  private readonly leases = new Map<string, number>();

  constructor(private readonly store: InMemoryStore) {}

  append(notice: Notice): Promise<void> {
    return this.store.atomic(() => {
      this.store.appendRow(this.store.tables.notices, notice, 'notice');
    });
  }

  pending(limit: number): Promise<Notice[]> {
    return this.store.atomic(() => copiesOf(this.store.tables.notices.filter((row) => row.value.sentAt === undefined).sort(oldestFirst), limit));
  }

  claim(id: string, now: Date, leaseUntil: Date): Promise<boolean> {
    return this.store.atomic(() => {
      const unsent = this.store.tables.notices.some((row) => row.value.id === id && row.value.sentAt === undefined);
      const lease = this.leases.get(id);
      if (!unsent || (lease !== undefined && lease > now.getTime())) return false;
      this.leases.set(id, leaseUntil.getTime());
      return true;
    });
  }

  release(id: string, leaseUntil: Date): Promise<void> {
    return this.store.atomic(() => {
      if (this.leases.get(id) === leaseUntil.getTime()) this.leases.delete(id);
    });
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
