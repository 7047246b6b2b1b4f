import type { Mode } from '@payments/core';
import { ConcurrentUpdateError, type AccountScope, type PaymentAttempt, type PaymentAttemptRepository } from '@payments/core';
import { KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toPaymentAttempt, toPaymentAttemptRow, type PaymentAttemptRow } from '../mapping/payment-attempt.row';
import { GUARD_INDEXES } from '../migrations/020-multi-writer-guards.migration';
import { isDuplicateKeyError } from '../sql-errors';

const PENDING_SLOT_UNIQUE = {
  indexName: GUARD_INDEXES.attemptPendingSlot,
  sqliteColumns: ['payment_attempts.payment_intent_id', 'payment_attempts.pending_slot'],
} as const;

export class KnexPaymentAttemptRepository extends KnexTable<PaymentAttemptRow> implements PaymentAttemptRepository {
  protected readonly tableName = 'payment_attempts';

  private ofIntent(scope: AccountScope, paymentIntentId: string) {
    return this.table().where({ payment_intent_id: paymentIntentId, merchant_id: scope.merchantId, mode: scope.mode });
  }

  async insert(attempt: PaymentAttempt): Promise<void> {
    try {
      await this.insertRow({ ...toPaymentAttemptRow(attempt), pending_slot: attempt.status === 'pending' ? 1 : null });
    } catch (error) {
      // The unique slot is the rule: another request made the intent's pending attempt first.
      if (isDuplicateKeyError(error, PENDING_SLOT_UNIQUE)) {
        throw new ConcurrentUpdateError(`Payment intent ${attempt.paymentIntentId} has a pending attempt already.`, 'pending_attempt_exists');
      }
      throw error;
    }
  }

  async findById(scope: AccountScope, id: string): Promise<PaymentAttempt | undefined> {
    const row = await this.first(this.table().where({ id, merchant_id: scope.merchantId, mode: scope.mode }));
    return row === undefined ? undefined : toPaymentAttempt(row);
  }

  async findByReference(id: string): Promise<PaymentAttempt | undefined> {
    const row = await this.first(this.table().where({ id }));
    return row === undefined ? undefined : toPaymentAttempt(row);
  }

  async findPending(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined> {
    const row = await this.first(this.ofIntent(scope, paymentIntentId).where({ status: 'pending' }).orderBy('seq', 'asc'));
    return row === undefined ? undefined : toPaymentAttempt(row);
  }

  async findSucceeded(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt | undefined> {
    const row = await this.first(this.ofIntent(scope, paymentIntentId).where({ status: 'succeeded' }).whereNull('duplicate_of').orderBy('seq', 'asc'));
    return row === undefined ? undefined : toPaymentAttempt(row);
  }

  async listForIntent(scope: AccountScope, paymentIntentId: string): Promise<PaymentAttempt[]> {
    const rows = await this.rows(this.ofIntent(scope, paymentIntentId).orderBy('seq', 'asc'));
    return rows.map(toPaymentAttempt);
  }

  async update(attempt: PaymentAttempt): Promise<PaymentAttempt> {
    const stored: PaymentAttempt = { ...attempt, version: attempt.version + 1 };
    const { id, merchant_id, mode, ...columns } = toPaymentAttemptRow(stored);
    // An attempt never becomes pending again: the slot is only ever given up.
    const slot = stored.status === 'pending' ? {} : { pending_slot: null };
    const changed = await this.changed(
      this.table()
        .where({ id, merchant_id, mode, version: attempt.version })
        .update({ ...columns, ...slot }),
    );
    if (changed === 0) throw new ConcurrentUpdateError(`Payment attempt ${attempt.id} was changed by another request; read it again and retry.`);
    return stored;
  }

  async listDuplicates(limit: number): Promise<PaymentAttempt[]> {
    const rows = await this.rows(this.table().whereNotNull('duplicate_of').orderBy('succeeded_at', 'desc').orderBy('seq', 'desc').limit(limit, INLINE));
    return rows.map(toPaymentAttempt);
  }

  async findDueForCheck(mode: Mode, now: Date, limit: number): Promise<PaymentAttempt[]> {
    const rows = await this.rows(
      this.table()
        .where({ status: 'pending', mode })
        .whereNotNull('next_check_at')
        .where('next_check_at', '<=', now.getTime())
        .orderBy('next_check_at', 'asc')
        .limit(limit, INLINE),
    );
    return rows.map(toPaymentAttempt);
  }
}
