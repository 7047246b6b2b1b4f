import type { Mode } from '@payments/core';
import {
  countsAgainstIntent,
  type AccountScope,
  type IntentRefundTotals,
  type Page,
  type PageRequest,
  type Refund,
  type RefundFilter,
  type RefundRepository,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { findInScope, inScope, type InMemoryStore } from './in-memory-store';

export class InMemoryRefundRepository implements RefundRepository {
  /** The reconciler's schedule, beside the entities as the SQL adapter keeps it beside the columns. */
  private readonly nextChecks = new Map<string, Date>();

  constructor(private readonly store: InMemoryStore) {}

  insert(refund: Refund): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.refunds.has(refund.id)) throw new Error(`Duplicate refund id ${refund.id}`);
      this.store.tables.refunds.set(refund.id, this.store.sequenced(refund));
    });
  }

  findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.refunds, scope, id));
  }

  /** Units of work run one at a time here, so a plain read is already serialised. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Refund | undefined> {
    return this.findById(scope, id);
  }

  findForChannel(mode: Mode, id: string): Promise<Refund | undefined> {
    return this.store.atomic(() => {
      const row = this.store.tables.refunds.get(id);
      return row?.value.mode === mode ? deepCopy(row.value) : undefined;
    });
  }

  update(refund: Refund): Promise<void> {
    return this.store.atomic(() => {
      const row = this.store.tables.refunds.get(refund.id);
      if (!row || !inScope(row.value, refund)) throw new Error(`No refund ${refund.id} to update`);
      this.store.tables.refunds.set(refund.id, { seq: row.seq, value: deepCopy(refund) });
    });
  }

  totalsForIntent(scope: AccountScope, paymentIntentId: string): Promise<IntentRefundTotals> {
    return this.store.atomic(() => {
      let refunded = 0;
      let debited = 0;
      let cleared = 0;
      for (const { value } of this.store.tables.refunds.values()) {
        if (!inScope(value, scope) || value.paymentIntentId !== paymentIntentId || !countsAgainstIntent(value)) continue;
        refunded += value.amount;
        debited += value.debit.amount;
        cleared += (value.cleared ?? value.debit).amount;
      }
      return { refunded, debited, cleared };
    });
  }

  list(scope: AccountScope, filter: RefundFilter, page: PageRequest): Promise<Page<Refund>> {
    return this.store.atomic(() =>
      pageNewestFirst(
        this.store.tables.refunds.values(),
        scope,
        page,
        'refund',
        (refund) =>
          (filter.status === undefined || refund.status === filter.status) &&
          (filter.paymentIntentId === undefined || refund.paymentIntentId === filter.paymentIntentId),
      ),
    );
  }

  findDueForCheck(query: { readonly mode: Mode; readonly createdBefore: Date; readonly now: Date; readonly limit: number }): Promise<Refund[]> {
    return this.store.atomic(() =>
      [...this.store.tables.refunds.values()]
        .filter(({ value }) => {
          const next = this.nextChecks.get(value.id);
          return value.mode === query.mode && value.status === 'pending' && value.created <= query.createdBefore && (next === undefined || next <= query.now);
        })
        .sort((a, b) => a.value.created.getTime() - b.value.created.getTime() || a.seq - b.seq)
        .slice(0, query.limit)
        .map((row) => deepCopy(row.value)),
    );
  }

  setNextCheck(id: string, nextCheckAt: Date): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.refunds.has(id)) this.nextChecks.set(id, new Date(nextCheckAt));
    });
  }
}
