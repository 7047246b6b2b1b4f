import type { Mode } from '@payments/core';
import {
  CoreError,
  isRuled,
  type AccountScope,
  type Dispute,
  type DisputeFilter,
  type DisputeRepository,
  type DisputeStatus,
  type Page,
  type PageRequest,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { findInScope, inScope, type InMemoryStore } from './in-memory-store';

export class InMemoryDisputeRepository implements DisputeRepository {
  /** The reconciler's schedule, beside the entities as the SQL adapter keeps it beside the columns. */
  private readonly nextChecks = new Map<string, Date>();

  constructor(private readonly store: InMemoryStore) {}

  insert(dispute: Dispute): Promise<void> {
    return this.store.atomic(() => {
      const { disputes } = this.store.tables;
      if (disputes.has(dispute.id)) throw new Error(`Duplicate dispute id ${dispute.id}`);
      for (const { value } of disputes.values()) {
        // The SQL adapter's unique (channel, mode, channel_dispute_id): one row per channel dispute.
        if (value.channel === dispute.channel && value.mode === dispute.mode && value.channelDisputeId === dispute.channelDisputeId) {
          throw new CoreError('dispute_exists', 'conflict', 'This channel dispute is recorded already.');
        }
      }
      disputes.set(dispute.id, this.store.sequenced(dispute));
    });
  }

  findById(scope: AccountScope, id: string): Promise<Dispute | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.disputes, scope, id));
  }

  /** Units of work run one at a time here, so a plain read is already serialised. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<Dispute | undefined> {
    return this.findById(scope, id);
  }

  findByChannelDisputeId(channel: string, mode: Mode, channelDisputeId: string): Promise<Dispute | undefined> {
    return this.store.atomic(() => {
      for (const { value } of this.store.tables.disputes.values()) {
        if (value.channel === channel && value.mode === mode && value.channelDisputeId === channelDisputeId) return deepCopy(value);
      }
      return undefined;
    });
  }

  findLatestForIntent(scope: AccountScope, paymentIntentId: string): Promise<Dispute | undefined> {
    return this.store.atomic(() => {
      let latest: { seq: number; value: Dispute } | undefined;
      for (const row of this.store.tables.disputes.values()) {
        if (!inScope(row.value, scope) || row.value.paymentIntentId !== paymentIntentId) continue;
        if (!latest || row.seq > latest.seq) latest = row;
      }
      return latest ? deepCopy(latest.value) : undefined;
    });
  }

  update(dispute: Dispute): Promise<void> {
    return this.store.atomic(() => {
      const row = this.store.tables.disputes.get(dispute.id);
      if (!row || !inScope(row.value, dispute)) throw new Error(`No dispute ${dispute.id} to update`);
      this.store.tables.disputes.set(dispute.id, { seq: row.seq, value: deepCopy(dispute) });
    });
  }

  findDueForCheck(query: { readonly mode: Mode; readonly updatedBefore: Date; readonly now: Date; readonly limit: number }): Promise<Dispute[]> {
    return this.store.atomic(() =>
      [...this.store.tables.disputes.values()]
        .filter(({ value }) => {
          const next = this.nextChecks.get(value.id);
          return value.mode === query.mode && !isRuled(value) && value.updated <= query.updatedBefore && (next === undefined || next <= query.now);
        })
        .sort((a, b) => a.value.updated.getTime() - b.value.updated.getTime() || a.seq - b.seq)
        .slice(0, query.limit)
        .map((row) => deepCopy(row.value)),
    );
  }

  setNextCheck(id: string, nextCheckAt: Date): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.disputes.has(id)) this.nextChecks.set(id, new Date(nextCheckAt));
    });
  }

  list(scope: AccountScope, filter: DisputeFilter, page: PageRequest): Promise<Page<Dispute>> {
    return this.store.atomic(() =>
      pageNewestFirst(
        this.store.tables.disputes.values(),
        scope,
        page,
        'dispute',
        (dispute) =>
          (filter.status === undefined || dispute.status === filter.status) &&
          (filter.paymentIntentId === undefined || dispute.paymentIntentId === filter.paymentIntentId),
      ),
    );
  }

  statusesByPayment(scope: AccountScope, paymentIntentIds: readonly string[]): Promise<ReadonlyMap<string, readonly DisputeStatus[]>> {
    return this.store.atomic(() => {
      const statuses = new Map<string, DisputeStatus[]>();
      const rows = [...this.store.tables.disputes.values()].sort((a, b) => a.seq - b.seq);
      for (const { value } of rows) {
        if (value.merchantId !== scope.merchantId || value.mode !== scope.mode || !paymentIntentIds.includes(value.paymentIntentId)) continue;
        statuses.set(value.paymentIntentId, [...(statuses.get(value.paymentIntentId) ?? []), value.status]);
      }
      return statuses;
    });
  }
}
