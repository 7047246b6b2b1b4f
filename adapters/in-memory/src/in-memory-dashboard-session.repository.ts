import type { DashboardSession, DashboardSessionRepository } from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

export class InMemoryDashboardSessionRepository implements DashboardSessionRepository {
  constructor(private readonly store: InMemoryStore) {}

  private get rows(): Map<string, DashboardSession> {
    return this.store.tables.dashboardSessions;
  }

  insert(session: DashboardSession): Promise<void> {
    return this.store.atomic(() => {
      if (this.rows.has(session.id)) throw new Error(`Duplicate dashboard session id ${session.id}`);
      if ([...this.rows.values()].some((row) => row.tokenDigest === session.tokenDigest)) throw new Error('Duplicate dashboard session token digest');
      this.rows.set(session.id, deepCopy(session));
    });
  }

  findByTokenDigest(tokenDigest: string): Promise<DashboardSession | undefined> {
    return this.store.atomic(() => deepCopy([...this.rows.values()].find((row) => row.tokenDigest === tokenDigest)));
  }

  end(merchantId: string, id: string, at: Date): Promise<void> {
    return this.store.atomic(() => {
      const row = this.rows.get(id);
      if (row && row.merchantId === merchantId && row.ended === undefined) this.rows.set(id, { ...row, ended: new Date(at.getTime()) });
    });
  }

  endAllForUser(merchantId: string, userId: string, at: Date): Promise<number> {
    return this.store.atomic(() => {
      let ended = 0;
      for (const row of this.rows.values()) {
        if (row.merchantId !== merchantId || row.userId !== userId || row.ended !== undefined) continue;
        this.rows.set(row.id, { ...row, ended: new Date(at.getTime()) });
        ended += 1;
      }
      return ended;
    });
  }

  deleteExpiredBefore(cutoff: Date): Promise<number> {
    return this.store.atomic(() => {
      let deleted = 0;
      for (const row of [...this.rows.values()]) {
        if (row.expiresAt.getTime() < cutoff.getTime()) {
          this.rows.delete(row.id);
          deleted += 1;
        }
      }
      return deleted;
    });
  }
}
