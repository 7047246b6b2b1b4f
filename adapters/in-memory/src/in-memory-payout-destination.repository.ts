import type { AccountScope, Mode, PayoutDestination, PayoutDestinationRepository, PayoutDestinationStatus } from '@payments/core';
import { deepCopy } from './deep-copy';
import { copiesOf, findInScope, inScope, newestFirst, oldestFirst, type InMemoryStore, type Sequenced } from './in-memory-store';

export class InMemoryPayoutDestinationRepository implements PayoutDestinationRepository {
  constructor(private readonly store: InMemoryStore) {}

  private inScope(scope: AccountScope): Sequenced<PayoutDestination>[] {
    return [...this.store.tables.payoutDestinations.values()].filter((row) => inScope(row.value, scope)).sort(newestFirst);
  }

  insert(destination: PayoutDestination): Promise<void> {
    return this.store.atomic(() => {
      const table = this.store.tables.payoutDestinations;
      if (table.has(destination.id)) throw new Error(`Duplicate payout destination id ${destination.id}`);
      // The unique index of the SQL schema: one default per merchant and mode.
      if (destination.isDefault && this.inScope(destination).some((row) => row.value.isDefault)) {
        throw new Error(`A second default payout destination for ${destination.merchantId} ${destination.mode}`);
      }
      table.set(destination.id, this.store.sequenced(destination));
    });
  }

  findById(scope: AccountScope, id: string): Promise<PayoutDestination | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.payoutDestinations, scope, id));
  }

  list(scope: AccountScope): Promise<PayoutDestination[]> {
    return this.store.atomic(() => this.inScope(scope).map((row) => deepCopy(row.value)));
  }

  findDefault(scope: AccountScope): Promise<PayoutDestination | undefined> {
    return this.store.atomic(() => deepCopy(this.inScope(scope).find((row) => row.value.isDefault)?.value));
  }

  makeDefault(scope: AccountScope, id: string, holdUntil: Date | undefined): Promise<PayoutDestination | undefined> {
    return this.store.atomic(() => {
      const rows = this.inScope(scope);
      const target = rows.find((row) => row.value.id === id);
      if (!target) return undefined;
      const table = this.store.tables.payoutDestinations;
      for (const row of rows) {
        if (row.value.isDefault && row.value.id !== id) table.set(row.value.id, { ...row, value: { ...row.value, isDefault: false } });
      }
      const updated: PayoutDestination = { ...target.value, isDefault: true, ...(holdUntil === undefined ? {} : { holdUntil: new Date(holdUntil.getTime()) }) };
      table.set(id, { ...target, value: updated });
      return deepCopy(updated);
    });
  }

  latestHold(scope: AccountScope): Promise<Date | undefined> {
    return this.store.atomic(() => {
      const holds = this.inScope(scope).flatMap((row) => (row.value.holdUntil ? [row.value.holdUntil.getTime()] : []));
      return holds.length === 0 ? undefined : new Date(Math.max(...holds));
    });
  }

  findUnverified(mode: Mode, limit: number): Promise<PayoutDestination[]> {
    return this.store.atomic(() =>
      copiesOf(
        [...this.store.tables.payoutDestinations.values()].filter((row) => row.value.mode === mode && row.value.status === 'unverified').sort(oldestFirst),
        limit,
      ),
    );
  }

  setVerification(scope: AccountScope, id: string, status: Exclude<PayoutDestinationStatus, 'unverified'>): Promise<boolean> {
    return this.store.atomic(() => {
      const row = this.store.tables.payoutDestinations.get(id);
      if (!row || row.value.merchantId !== scope.merchantId || row.value.mode !== scope.mode || row.value.status !== 'unverified') return false;
      this.store.tables.payoutDestinations.set(id, { ...row, value: { ...row.value, status } });
      return true;
    });
  }
}
