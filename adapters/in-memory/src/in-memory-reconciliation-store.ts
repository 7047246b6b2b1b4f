import type {
  ChannelStatement,
  KeyTotal,
  LineTotalsQuery,
  Mode,
  OpenBreakCount,
  ReconciliationItem,
  ReconciliationItemFilter,
  ReconciliationProgress,
  ReconciliationStore,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import type { InMemoryStore } from './in-memory-store';

const progressKey = (channel: string, mode: Mode): string => `${channel}:${mode}`;
const openKey = (item: ReconciliationItem): string => `${item.channel}:${item.mode}:${item.kind}:${item.reference}`;

/** The reconciliation's tables in the in-memory store (and its transactions). */
export class InMemoryReconciliationStore implements ReconciliationStore {
  constructor(private readonly store: InMemoryStore) {}

  progress(channel: string, mode: Mode): Promise<ReconciliationProgress | undefined> {
    return this.store.atomic(() => {
      const progress = this.store.tables.reconciliationProgress.get(progressKey(channel, mode));
      return progress && deepCopy(progress);
    });
  }

  saveStatementPage(channel: string, mode: Mode, page: ChannelStatement, fetchedAt: Date): Promise<number> {
    return this.store.transaction(async () => {
      const { reconciliationLines, reconciliationProgress } = this.store.tables;
      let added = 0;
      for (const line of page.lines) {
        const key = `${channel}:${mode}:${line.kind}:${line.channelId}`;
        if (reconciliationLines.has(key)) continue;
        reconciliationLines.set(key, { channel, mode, line: deepCopy(line), fetchedAt: new Date(fetchedAt) });
        added += 1;
      }
      const known = reconciliationProgress.get(progressKey(channel, mode));
      reconciliationProgress.set(progressKey(channel, mode), { ...known, channel, mode, cursor: page.next, statementAsOf: new Date(page.asOf) });
      return added;
    });
  }

  lineTotals(query: LineTotalsQuery): Promise<KeyTotal[]> {
    return this.store.atomic(() => {
      const stored = [...this.store.tables.reconciliationLines.values()].filter((row) => row.channel === query.channel && row.mode === query.mode);
      const keyOf = (row: (typeof stored)[number]): string => `${row.line.kind}:${row.line.reference}`;
      const wanted = new Set((query.keys ?? []).map((key) => `${key.kind}:${key.reference}`));
      if (query.fetchedSince !== undefined) for (const row of stored) if (row.fetchedAt >= query.fetchedSince) wanted.add(keyOf(row));
      const everything = query.fetchedSince === undefined && query.keys === undefined;
      const totals = new Map<string, KeyTotal>();
      for (const row of stored) {
        if (!everything && !wanted.has(keyOf(row))) continue;
        const group = `${keyOf(row)}:${row.line.currency}`;
        const known = totals.get(group);
        totals.set(group, {
          kind: row.line.kind,
          reference: row.line.reference,
          currency: row.line.currency,
          amount: (known?.amount ?? 0n) + BigInt(row.line.amount),
        });
      }
      return [...totals.values()];
    });
  }

  unsettled(channel: string, mode: Mode): Promise<ReconciliationItem[]> {
    return this.store.atomic(() =>
      [...this.store.tables.reconciliationItems.values()]
        .filter((item) => item.channel === channel && item.mode === mode && item.status !== 'cleared')
        .map(deepCopy),
    );
  }

  record(
    channel: string,
    mode: Mode,
    changes: { readonly save: readonly ReconciliationItem[]; readonly remove: readonly string[] },
    checkedUntil: Date,
  ): Promise<void> {
    return this.store.transaction(async () => {
      const { reconciliationItems, reconciliationProgress } = this.store.tables;
      for (const id of changes.remove) if (reconciliationItems.get(id)?.status === 'waiting') reconciliationItems.delete(id);
      for (const item of changes.save) {
        if (item.status !== 'cleared') {
          const other = [...reconciliationItems.values()].find(
            (known) => known.id !== item.id && known.status !== 'cleared' && openKey(known) === openKey(item),
          );
          if (other) throw new Error(`A second unsettled reconciliation item for ${openKey(item)}`);
        }
        reconciliationItems.set(item.id, deepCopy(item));
      }
      const known = reconciliationProgress.get(progressKey(channel, mode));
      reconciliationProgress.set(progressKey(channel, mode), { ...known, channel, mode, checkedUntil: new Date(checkedUntil) });
    });
  }

  list(filter: ReconciliationItemFilter): Promise<ReconciliationItem[]> {
    return this.store.atomic(() =>
      [...this.store.tables.reconciliationItems.values()]
        .filter(
          (item) =>
            (filter.status === undefined || item.status === filter.status) &&
            (filter.channel === undefined || item.channel === filter.channel) &&
            (filter.mode === undefined || item.mode === filter.mode),
        )
        .sort((a, b) => b.updated.getTime() - a.updated.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, filter.limit)
        .map(deepCopy),
    );
  }

  countOpen(): Promise<OpenBreakCount[]> {
    return this.store.atomic(() => {
      const counts = new Map<string, OpenBreakCount>();
      for (const item of this.store.tables.reconciliationItems.values()) {
        if (item.status !== 'open') continue;
        const key = `${item.channel}:${item.mode}:${item.reason}`;
        const count = counts.get(key)?.count ?? 0;
        counts.set(key, { channel: item.channel, mode: item.mode, reason: item.reason, count: count + 1 });
      }
      return [...counts.values()];
    });
  }
}
