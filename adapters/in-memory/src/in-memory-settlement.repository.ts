import type { Mode } from '@payments/core';
import {
  ConcurrentUpdateError,
  type AccountScope,
  type DisputeStatus,
  type Page,
  type PageRequest,
  type PaymentIntent,
  type RequestKey,
  type Settlement,
  type SettlementRepository,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { copiesOf, earliestFirst, findInScope, inScope, oldestFirst, type InMemoryStore } from './in-memory-store';

function sameRequestKey(a: RequestKey | undefined, b: RequestKey): boolean {
  return a !== undefined && a.caller === b.caller && a.key === b.key;
}

/** Disputes that keep a payment out of settlement: its money is held, or was taken back. */
const BLOCKING_DISPUTES: readonly DisputeStatus[] = ['opened', 'under_review', 'lost'];

export class InMemorySettlementRepository implements SettlementRepository {
  constructor(private readonly store: InMemoryStore) {}

  insert(settlement: Settlement): Promise<void> {
    return this.store.atomic(() => {
      const table = this.store.tables.settlements;
      if (table.has(settlement.id)) throw new Error(`Duplicate settlement id ${settlement.id}`);
      // The SQL schema's unique index: one scheduled batch part per merchant, mode and period end.
      if (settlement.trigger === 'scheduled') {
        for (const { value } of table.values()) {
          const samePart = (value.part ?? 1) === (settlement.part ?? 1);
          if (value.trigger === 'scheduled' && inScope(value, settlement) && value.periodEnd.getTime() === settlement.periodEnd.getTime() && samePart) {
            throw new ConcurrentUpdateError('A scheduled settlement of this period exists already.', 'settlement_conflict');
          }
        }
      }
      // And the one on request keys: one manual settlement per request.
      if (settlement.requestKey !== undefined) {
        for (const { value } of table.values()) {
          if (inScope(value, settlement) && sameRequestKey(value.requestKey, settlement.requestKey))
            throw new ConcurrentUpdateError('A settlement of this request exists already.', 'settlement_conflict');
        }
      }
      table.set(settlement.id, this.store.sequenced(settlement));
    });
  }

  findById(scope: AccountScope, id: string): Promise<Settlement | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.settlements, scope, id));
  }

  findByRequestKey(scope: AccountScope, requestKey: RequestKey): Promise<Settlement | undefined> {
    return this.store.atomic(() => {
      for (const { value } of this.store.tables.settlements.values()) {
        if (inScope(value, scope) && sameRequestKey(value.requestKey, requestKey)) return deepCopy(value);
      }
      return undefined;
    });
  }

  forgetRequestKey(scope: AccountScope, id: string): Promise<void> {
    return this.store.atomic(() => {
      const row = this.store.tables.settlements.get(id);
      if (!row || !inScope(row.value, scope)) return;
      const { requestKey: _requestKey, ...rest } = row.value;
      this.store.tables.settlements.set(id, { seq: row.seq, value: rest });
    });
  }

  /** Units of work run one at a time here, so a plain read is already serialised. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Settlement | undefined> {
    return this.findById(scope, id);
  }

  update(settlement: Settlement): Promise<void> {
    return this.store.atomic(() => {
      const row = this.store.tables.settlements.get(settlement.id);
      if (!row || !inScope(row.value, settlement)) throw new Error(`Unknown settlement ${settlement.id}`);
      // As in SQL, the request key is not the update's to write (see forgetRequestKey).
      const { requestKey: _requestKey, ...changes } = deepCopy(settlement);
      const requestKey = row.value.requestKey;
      this.store.tables.settlements.set(settlement.id, { seq: row.seq, value: requestKey === undefined ? changes : { ...changes, requestKey } });
    });
  }

  list(scope: AccountScope, page: PageRequest): Promise<Page<Settlement>> {
    return this.store.atomic(() => pageNewestFirst(this.store.tables.settlements.values(), scope, page, 'settlement'));
  }

  findScheduled(scope: AccountScope, periodEnd: Date): Promise<Settlement | undefined> {
    return this.store.atomic(() => {
      for (const { value } of this.store.tables.settlements.values()) {
        if (value.trigger === 'scheduled' && inScope(value, scope) && value.periodEnd.getTime() === periodEnd.getTime()) return deepCopy(value);
      }
      return undefined;
    });
  }

  findUnfinished(mode: Mode, limit: number): Promise<Settlement[]> {
    return this.store.atomic(() =>
      copiesOf(
        [...this.store.tables.settlements.values()]
          .filter((row) => row.value.mode === mode && (row.value.status === 'pending' || row.value.status === 'processing'))
          .sort(oldestFirst),
        limit,
      ),
    );
  }

  findSettleable(scope: AccountScope, releasedBefore: Date): Promise<PaymentIntent[]> {
    return this.store.atomic(() =>
      this.waitingIntents(scope, (value) => value.releasedAt !== undefined && value.releasedAt.getTime() <= releasedBefore.getTime())
        .sort(earliestFirst((value) => value.releasedAt))
        .map((row) => deepCopy(row.value)),
    );
  }

  findReleasing(scope: AccountScope, dueBefore: Date): Promise<PaymentIntent[]> {
    return this.store.atomic(() =>
      this.waitingIntents(
        scope,
        (value) => value.releasedAt === undefined && value.availableAt !== undefined && value.availableAt.getTime() < dueBefore.getTime(),
      )
        .sort(earliestFirst((value) => value.availableAt))
        .map((row) => deepCopy(row.value)),
    );
  }

  /** The scope's channel-settled intents no settlement covers and no open or lost dispute blocks, that `also` accepts. */
  private waitingIntents(scope: AccountScope, also: (value: PaymentIntent) => boolean) {
    const blocked = new Set<string>();
    for (const { value } of this.store.tables.disputes.values()) {
      if (inScope(value, scope) && BLOCKING_DISPUTES.includes(value.status)) blocked.add(value.paymentIntentId);
    }
    return [...this.store.tables.intents.values()].filter(
      ({ value }) => inScope(value, scope) && value.status === 'channel_settled' && value.settlementId === undefined && !blocked.has(value.id) && also(value),
    );
  }

  assignPayments(scope: AccountScope, settlementId: string, intentIds: readonly string[]): Promise<number> {
    return this.store.atomic(() => {
      let marked = 0;
      for (const id of new Set(intentIds)) {
        const row = this.store.tables.intents.get(id);
        if (!row || !inScope(row.value, scope) || row.value.settlementId !== undefined) continue;
        this.store.tables.intents.set(id, { ...row, value: { ...row.value, settlementId } });
        marked += 1;
      }
      return marked;
    });
  }

  releasePayments(scope: AccountScope, settlementId: string): Promise<number> {
    return this.store.atomic(() => {
      let freed = 0;
      for (const [id, row] of this.store.tables.intents) {
        if (!inScope(row.value, scope) || row.value.settlementId !== settlementId) continue;
        const { settlementId: _covered, ...rest } = row.value;
        this.store.tables.intents.set(id, { ...row, value: rest });
        freed += 1;
      }
      return freed;
    });
  }
}
