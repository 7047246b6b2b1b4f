import type { AuditEntry, AuditLog } from '@payments/core';
import { copiesOf, newestFirst, type InMemoryStore } from './in-memory-store';

export class InMemoryAuditLog implements AuditLog {
  constructor(private readonly store: InMemoryStore) {}

  record(entry: AuditEntry): Promise<void> {
    return this.store.atomic(() => {
      this.store.tables.audit.push(this.store.sequenced(entry));
    });
  }

  listForMerchant(merchantId: string, limit: number): Promise<AuditEntry[]> {
    return this.store.atomic(() => copiesOf(this.store.tables.audit.filter((row) => row.value.merchantId === merchantId).sort(newestFirst), limit));
  }
}
