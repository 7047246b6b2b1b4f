import type { Knex } from 'knex';
import type { Mode, MoneyStatus } from '@payments/core';
import {
  ConcurrentUpdateError,
  CoreError,
  DISPUTE_STATUSES,
  EXPIRABLE,
  ID_PATTERNS,
  merchantOrderSearchKey,
  RULED_DISPUTE_STATUSES,
  type AccountScope,
  type Page,
  type PageRequest,
  type PaymentIntent,
  type PaymentIntentFilter,
  type PaymentIntentRepository,
} from '@payments/core';
import { KnexTable } from '../knex-context';
import { toPaymentIntent, toPaymentIntentRow, type PaymentIntentRow } from '../mapping/payment-intent.row';
import { INDEXES } from '../migrations/001-initial-schema.migration';
import { isDuplicateKeyError } from '../sql-errors';
import { INLINE } from '../sql-statements';
import { cursorSeq } from './cursor';

/** Every read of one intent (the API's GET above all): written out once rather than compiled per call. */
const INTENT_BY_ID = 'select * from `payment_intents` where `id` = ? and `merchant_id` = ? and `mode` = ? limit 1';

const MERCHANT_ORDER_UNIQUE = {
  indexName: INDEXES.intentsMerchantOrder,
  sqliteColumns: ['payment_intents.merchant_id', 'payment_intents.mode', 'payment_intents.merchant_order_id'],
} as const;

function merchantOrderIdTaken(merchantOrderId: string, cause: unknown): CoreError {
  return new CoreError(
    'merchant_order_id_taken',
    'conflict',
    `A payment intent with merchant_order_id '${merchantOrderId}' already exists; use a new order id or retrieve the existing intent.`,
    { param: 'merchant_order_id', cause },
  );
}

/** `text` as a LIKE pattern matching itself: `!` escapes (the same on both engines, unlike `\\`). */
function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (char) => `!${char}`);
}

function changedMeanwhile(id: string): ConcurrentUpdateError {
  return new ConcurrentUpdateError(`Payment intent ${id} was changed by another request; read it again and retry.`);
}

export class KnexPaymentIntentRepository extends KnexTable<PaymentIntentRow> implements PaymentIntentRepository {
  protected readonly tableName = 'payment_intents';

  async insert(intent: PaymentIntent): Promise<void> {
    try {
      await this.insertRow(toPaymentIntentRow(intent));
    } catch (error) {
      // The unique index is the rule: a check-then-insert would race under concurrency.
      if (isDuplicateKeyError(error, MERCHANT_ORDER_UNIQUE)) throw merchantOrderIdTaken(intent.merchantOrderId, error);
      throw error;
    }
  }

  async findById(scope: AccountScope, id: string): Promise<PaymentIntent | undefined> {
    const row = await this.first({ sql: INTENT_BY_ID, bindings: [id, scope.merchantId, scope.mode] });
    return row === undefined ? undefined : toPaymentIntent(row);
  }

  async findByIdForUpdate(scope: AccountScope, id: string): Promise<PaymentIntent | undefined> {
    const query = this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode });
    const row = await this.first(this.context.lockedRead(query));
    return row === undefined ? undefined : toPaymentIntent(row);
  }

  async update(intent: PaymentIntent): Promise<PaymentIntent> {
    const stored: PaymentIntent = { ...intent, version: intent.version + 1 };
    // settlement_id is the settlement repository's to write: an intent read before a settlement
    // covered it must not clear the mark.
    const { id, merchant_id, mode, settlement_id: _settlement, ...columns } = toPaymentIntentRow(stored);
    let changed: number;
    try {
      changed = await this.changed(this.table().where({ id, merchant_id, mode, version: intent.version }).update(columns));
    } catch (error) {
      if (isDuplicateKeyError(error, MERCHANT_ORDER_UNIQUE)) throw merchantOrderIdTaken(intent.merchantOrderId, error);
      throw error;
    }
    if (changed === 0) throw changedMeanwhile(intent.id);
    return stored;
  }

  async bumpVersion(intent: PaymentIntent): Promise<PaymentIntent> {
    const changed = await this.changed(
      this.table()
        .where({ id: intent.id, merchant_id: intent.merchantId, mode: intent.mode, version: intent.version })
        .update({ version: intent.version + 1 }),
    );
    if (changed === 0) throw changedMeanwhile(intent.id);
    return { ...intent, version: intent.version + 1 };
  }

  async list(scope: AccountScope, filter: PaymentIntentFilter, page: PageRequest): Promise<Page<PaymentIntent>> {
    const query = this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
    if (page.startingAfter !== undefined) {
      query.where('seq', '<', await cursorSeq(this.context, 'payment_intents', scope, page.startingAfter, 'payment_intent'));
    }
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.merchantOrderId !== undefined) query.where('merchant_order_id', filter.merchantOrderId);
    if (filter.createdGte !== undefined) query.where('created_at', '>=', filter.createdGte.getTime());
    if (filter.createdLte !== undefined) query.where('created_at', '<=', filter.createdLte.getTime());
    if (filter.currency !== undefined) query.where('currency', filter.currency);
    const wanted = filter.idOrOrderIdPrefix;
    if (wanted !== undefined) {
      // A prefix LIKE of the lower-cased order id, its wildcards escaped so `_` and `%` match
      // themselves: a range of its index after merchant and mode (on SQLite too, whose LIKE
      // optimisation the NOCASE column allows). Only text shaped like an intent id also looks
      // for that id: the OR costs the index, so a plain order-id search goes without it.
      const prefix = `${escapeLike(merchantOrderSearchKey(wanted))}%`;
      const byKey = "`merchant_order_key` like ? escape '!'";
      if (ID_PATTERNS.payment_intent.test(wanted)) query.where((search) => void search.where('id', wanted).orWhereRaw(byKey, [prefix]));
      else query.whereRaw(byKey, [prefix]);
    }
    if (filter.amounts !== undefined) {
      const amounts = filter.amounts;
      if (amounts.length === 0) query.whereRaw('1 = 0');
      else query.where((any) => void amounts.forEach((money) => void any.orWhere({ currency: money.currency, amount: money.amount })));
    }
    if (filter.moneyStatus !== undefined) this.whereMoneyStatus(query, filter.moneyStatus);
    // One extra row tells whether another page follows without a COUNT.
    const rows = await this.rows(query.orderBy('seq', 'desc').limit(page.limit + 1, INLINE));
    return { data: rows.slice(0, page.limit).map(toPaymentIntent), hasMore: rows.length > page.limit };
  }

  /**
   * The money status as `moneyStatuses` derives it: refunds from the intent's own columns, disputes
   * by EXISTS over the intent's disputes (their index by merchant, mode and intent).
   */
  private whereMoneyStatus(query: Knex.QueryBuilder, status: MoneyStatus): void {
    const disputes = (statuses: readonly string[]) => (sub: Knex.QueryBuilder) =>
      void sub
        .select(this.context.db().raw('1'))
        .from('disputes')
        .whereRaw('`disputes`.`merchant_id` = `payment_intents`.`merchant_id`')
        .whereRaw('`disputes`.`mode` = `payment_intents`.`mode`')
        .whereRaw('`disputes`.`payment_intent_id` = `payment_intents`.`id`')
        .whereIn('disputes.status', statuses);
    const open = DISPUTE_STATUSES.filter((candidate) => !RULED_DISPUTE_STATUSES.includes(candidate));
    switch (status) {
      case 'refunded':
        query.whereRaw('`amount_refunded` >= `amount`');
        return;
      case 'partially_refunded':
        query.where('amount_refunded', '>', 0).whereRaw('`amount_refunded` < `amount`');
        return;
      case 'disputed':
        query.whereExists(disputes(open));
        return;
      case 'dispute_lost':
        query.whereNotExists(disputes(open)).whereExists(disputes(['lost']));
        return;
      case 'dispute_won':
        query.whereNotExists(disputes([...open, 'lost'])).whereExists(disputes(['won']));
        return;
    }
  }

  async findDueForExpiry(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    const rows = await this.rows(
      this.table()
        .where({ mode })
        .whereIn('status', [...EXPIRABLE])
        .whereNotNull('expires_at')
        .where('expires_at', '<=', now.getTime())
        .orderBy('expires_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(limit, INLINE),
    );
    return rows.map(toPaymentIntent);
  }

  async findAwaitingChannelSettlement(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    const rows = await this.rows(
      this.table()
        .where({ status: 'succeeded', mode })
        .where((due) => void due.whereNull('settlement_check_at').orWhere('settlement_check_at', '<=', now.getTime()))
        // NULL (never asked) sorts first on SQLite and MySQL alike.
        .orderBy('settlement_check_at', 'asc')
        .orderBy('updated_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(limit, INLINE),
    );
    return rows.map(toPaymentIntent);
  }

  /** `settlement_check_at` (migration 017) is no column of the entity, so `update` never writes it. */
  async deferSettlementCheck(id: string, at: Date): Promise<void> {
    await this.changed(this.context.db()('payment_intents').where({ id }).update({ settlement_check_at: at.getTime() }));
  }

  async findDueForRelease(mode: Mode, now: Date, limit: number): Promise<PaymentIntent[]> {
    const rows = await this.rows(
      this.table()
        .where({ status: 'channel_settled', mode })
        .whereNull('released_at')
        .where('available_at', '<=', now.getTime())
        .orderBy('available_at', 'asc')
        .orderBy('seq', 'asc')
        .limit(limit, INLINE),
    );
    return rows.map(toPaymentIntent);
  }
}
