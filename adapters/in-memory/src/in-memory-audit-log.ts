import type { AuditEntry, AuditLog } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryAuditLog implements AuditLog {
  constructor(private readonly store: InMemoryStore) {}

  record(entry: AuditEntry): Promise<void> {
    return this.store.atomic(() => {
      this.store.tables.audit.push({ seq: this.store.nextSequence(), value: deepCopy(entry) });
    });
  }

  listForMerchant(merchantId: string, limit: number): Promise<AuditEntry[]> {
    return this.store.atomic(() =>
      this.store.tables.audit
        .filter((row) => row.value.merchantId === merchantId)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }
}
