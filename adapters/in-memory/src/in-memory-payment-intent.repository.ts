import type { Mode } from '@payments/core';
import {
  ConcurrentUpdateError,
  CoreError,
  disputeOutcome,
  isDueForExpiry,
  merchantOrderSearchKey,
  moneyStatuses,
  type PaymentDisputeOutcome,
  type AccountScope,
  type Page,
  type PageRequest,
  type PaymentIntent,
  type PaymentIntentFilter,
  type PaymentIntentRepository,
} from '@payments/core';
import { deepCopy } from './deep-copy';
import { pageNewestFirst } from './in-memory-pagination';
import { earliestFirst, findInScope, inScope, type InMemoryStore } from './in-memory-store';

function merchantOrderIdTaken(merchantOrderId: string): CoreError {
  return new CoreError(
    'merchant_order_id_taken',
    'conflict',
    `A payment intent with merchant_order_id '${merchantOrderId}' already exists; use a new order id or retrieve the existing intent.`,
    { param: 'merchant_order_id' },
  );
}

function changedMeanwhile(id: string): ConcurrentUpdateError {
  return new ConcurrentUpdateError(`Payment intent ${id} was changed by another request; read it again and retry.`);
}

export class InMemoryPaymentIntentRepository implements PaymentIntentRepository {
  /** `settlement_check_at` of the SQL schema: no field of the entity, so kept beside it. */
  private readonly settlementChecks = new Map<string, Date>();

  constructor(private readonly store: InMemoryStore) {}

  /** True when another intent of the same merchant and mode already uses this order id. */
  private orderIdTaken(intent: PaymentIntent): boolean {
    for (const { value } of this.store.tables.intents.values()) {
      if (value.id !== intent.id && inScope(value, intent) && value.merchantOrderId === intent.merchantOrderId) return true;
    }
    return false;
  }

  insert(intent: PaymentIntent): Promise<void> {
    return this.store.atomic(() => {
      if (this.orderIdTaken(intent)) throw merchantOrderIdTaken(intent.merchantOrderId);
      this.store.insertRow(this.store.tables.intents, intent.id, intent, 'payment intent');
    });
  }

  findById(scope: AccountScope, id: string): Promise<PaymentIntent | undefined> {
    return this.store.atomic(() => findInScope(this.store.tables.intents, scope, id));
  }

  /** Units of work run one at a time here, so a plain read is already serialised. */
  findByIdForUpdate(scope: AccountScope, id: string): Promise<PaymentIntent | undefined> {
    return this.findById(scope, id);
  }

  update(intent: PaymentIntent): Promise<PaymentIntent> {
    return this.store.atomic(() => {
      const row = this.store.tables.intents.get(intent.id);
      if (!row || !inScope(row.value, intent) || row.value.version !== intent.version) throw changedMeanwhile(intent.id);
      if (this.orderIdTaken(intent)) throw merchantOrderIdTaken(intent.merchantOrderId);
      // The settlement mark is the settlement repository's to write: an intent read before it
      // was set must not clear it (the SQL adapter leaves the column out of its update too).
      const { settlementId: _ignored, ...changed } = intent;
      const covered = row.value.settlementId;
      const stored = deepCopy({ ...changed, ...(covered === undefined ? {} : { settlementId: covered }), version: intent.version + 1 });
      this.store.tables.intents.set(intent.id, { seq: row.seq, value: stored });
      return deepCopy(stored);
    });
  }

  bumpVersion(intent: PaymentIntent): Promise<PaymentIntent> {
    return this.store.atomic(() => {
      const row = this.store.tables.intents.get(intent.id);
      if (!row || !inScope(row.value, intent) || row.value.version !== intent.version) throw changedMeanwhile(intent.id);
      const version = intent.version + 1;
      this.store.tables.intents.set(intent.id, { seq: row.seq, value: { ...row.value, version } });
      return { ...deepCopy(intent), version };
    });
  }

  /** The outcomes of the intent's disputes, read from the store's disputes as the SQL adapter reads its table. */
  private disputeOutcomes(intent: PaymentIntent): PaymentDisputeOutcome[] {
    return [...this.store.tables.disputes.values()]
      .filter(({ value }) => value.merchantId === intent.merchantId && value.mode === intent.mode && value.paymentIntentId === intent.id)
      .map(({ value }) => disputeOutcome(value.status));
  }

  list(scope: AccountScope, filter: PaymentIntentFilter, page: PageRequest): Promise<Page<PaymentIntent>> {
    return this.store.atomic(() =>
      pageNewestFirst(
        this.store.tables.intents.values(),
        scope,
        page,
        'payment_intent',
        (intent) =>
          (filter.status === undefined || intent.status === filter.status) &&
          (filter.merchantOrderId === undefined || intent.merchantOrderId === filter.merchantOrderId) &&
          (filter.createdGte === undefined || intent.created.getTime() >= filter.createdGte.getTime()) &&
          (filter.createdLte === undefined || intent.created.getTime() <= filter.createdLte.getTime()) &&
          (filter.currency === undefined || intent.currency === filter.currency) &&
          (filter.idOrOrderIdPrefix === undefined ||
            intent.id === filter.idOrOrderIdPrefix ||
            merchantOrderSearchKey(intent.merchantOrderId).startsWith(merchantOrderSearchKey(filter.idOrOrderIdPrefix))) &&
          (filter.amounts === undefined || filter.amounts.some((money) => money.currency === intent.currency && money.amount === intent.amount)) &&
          (filter.moneyStatus === undefined || moneyStatuses(intent, this.disputeOutcomes(intent)).includes(filter.moneyStatus)),
      ),
    );
  }

  findDueForExpiry(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    return this.store.atomic(() =>
      [...this.store.tables.intents.values()]
        .filter((row) => row.value.mode === mode && isDueForExpiry(row.value, now))
        .sort(earliestFirst((value) => value.expiresAt))
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }

  findAwaitingChannelSettlement(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    const checkAt = (id: string): number => this.settlementChecks.get(id)?.getTime() ?? -Infinity;
    return this.store.atomic(() =>
      [...this.store.tables.intents.values()]
        .filter((row) => row.value.mode === mode && row.value.status === 'succeeded' && checkAt(row.value.id) <= now.getTime())
        .sort((a, b) => checkAt(a.value.id) - checkAt(b.value.id) || a.value.updated.getTime() - b.value.updated.getTime() || a.seq - b.seq)
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }

  deferSettlementCheck(id: string, at: Date): Promise<void> {
    return this.store.atomic(() => {
      if (this.store.tables.intents.has(id)) this.settlementChecks.set(id, new Date(at.getTime()));
    });
  }

  findDueForRelease(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    return this.store.atomic(() =>
      [...this.store.tables.intents.values()]
        .filter(
          ({ value }) =>
            value.mode === mode &&
            value.status === 'channel_settled' &&
            value.releasedAt === undefined &&
            value.availableAt !== undefined &&
            value.availableAt <= now,
        )
        .sort(earliestFirst((value) => value.availableAt))
        .slice(0, limit)
        .map((row) => deepCopy(row.value)),
    );
  }
}
