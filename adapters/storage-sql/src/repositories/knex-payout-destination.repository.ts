import type { AccountScope, Mode, PayoutDestination, PayoutDestinationRepository, PayoutDestinationStatus, PayoutDestinationType } from '@payments/core';
import { ConcurrentUpdateError } from '@payments/core';
import { inRepositoryTransaction, KnexTable } from '../knex-context';
import { INLINE } from '../sql-statements';
import { toDate, toMillis, toNullableMillis, toNumber, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';
import { DASHBOARD_RESOURCE_INDEXES } from '../migrations/005-dashboard-resources.migration';
import { isDuplicateKeyError } from '../sql-errors';

const DEFAULT_UNIQUE = {
  indexName: DASHBOARD_RESOURCE_INDEXES.payoutDestinationsDefault,
  sqliteColumns: ['payout_destinations.merchant_id', 'payout_destinations.mode', 'payout_destinations.default_marker'],
} as const;

interface PayoutDestinationRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  type: PayoutDestinationType;
  currency: string;
  account_holder: string;
  bank_code: string;
  account_number_sealed: string;
  account_number_last4: string;
  status: PayoutDestinationStatus;
  default_marker: number | null;
  hold_until: BigIntValue | null;
  created_at: BigIntValue;
}

function toEntity(row: PayoutDestinationRow): PayoutDestination {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    type: row.type,
    currency: row.currency,
    accountHolder: row.account_holder,
    bankCode: row.bank_code,
    accountNumberSealed: row.account_number_sealed,
    accountNumberLast4: row.account_number_last4,
    status: row.status,
    isDefault: row.default_marker !== null,
    holdUntil: toOptionalDate(row.hold_until),
    created: toDate(row.created_at),
  });
}

export class KnexPayoutDestinationRepository extends KnexTable<PayoutDestinationRow> implements PayoutDestinationRepository {
  protected readonly tableName = 'payout_destinations';

  private scoped(scope: AccountScope) {
    return this.table().where({ merchant_id: scope.merchantId, mode: scope.mode });
  }

  async insert(destination: PayoutDestination): Promise<void> {
    await this.insertRow({
      id: destination.id,
      merchant_id: destination.merchantId,
      mode: destination.mode,
      type: destination.type,
      currency: destination.currency,
      account_holder: destination.accountHolder,
      bank_code: destination.bankCode,
      account_number_sealed: destination.accountNumberSealed,
      account_number_last4: destination.accountNumberLast4,
      status: destination.status,
      default_marker: destination.isDefault ? 1 : null,
      hold_until: toNullableMillis(destination.holdUntil),
      created_at: toMillis(destination.created),
    });
  }

  async findById(scope: AccountScope, id: string): Promise<PayoutDestination | undefined> {
    const row = await this.first(this.scoped(scope).where({ id }));
    return row === undefined ? undefined : toEntity(row);
  }

  async list(scope: AccountScope): Promise<PayoutDestination[]> {
    return (await this.rows(this.scoped(scope).orderBy('seq', 'desc'))).map(toEntity);
  }

  async findDefault(scope: AccountScope): Promise<PayoutDestination | undefined> {
    const row = await this.first(this.scoped(scope).where({ default_marker: 1 }));
    return row === undefined ? undefined : toEntity(row);
  }

  makeDefault(scope: AccountScope, id: string, holdUntil: Date | undefined): Promise<PayoutDestination | undefined> {
    return inRepositoryTransaction(this, async (bound) => {
      // Lock the scope's rows first (MySQL): two concurrent changes then run one after the other
      // instead of both clearing a stale default and colliding on the unique index.
      const lock = bound.scoped(scope).select('id');
      await bound.rows(bound.context.lockedRead(lock));
      const target = await bound.first(bound.scoped(scope).where({ id }));
      if (target === undefined) return undefined;
      await bound.changed(bound.scoped(scope).where({ default_marker: 1 }).whereNot({ id }).update({ default_marker: null }));
      try {
        await bound.changed(
          bound
            .scoped(scope)
            .where({ id })
            .update({ default_marker: 1, ...(holdUntil === undefined ? {} : { hold_until: toMillis(holdUntil) }) }),
        );
      } catch (error) {
        // The unique marker is the rule where the lock is not (another node of a cluster): a
        // default set meanwhile. The transaction runs again and decides on it.
        if (isDuplicateKeyError(error, DEFAULT_UNIQUE)) throw new ConcurrentUpdateError('Another payout destination became the default meanwhile.');
        throw error;
      }
      return bound.findById(scope, id);
    });
  }

  async findUnverified(mode: Mode, limit: number): Promise<PayoutDestination[]> {
    return (await this.rows(this.table().where({ mode, status: 'unverified' }).orderBy('seq', 'asc').limit(limit, INLINE))).map(toEntity);
  }

  async setVerification(scope: AccountScope, id: string, status: Exclude<PayoutDestinationStatus, 'unverified'>): Promise<boolean> {
    // Conditional on `unverified`, so two workers deciding at once change the row once.
    const changed = await this.changed(this.scoped(scope).where({ id, status: 'unverified' }).update({ status }));
    return changed > 0;
  }

  async latestHold(scope: AccountScope): Promise<Date | undefined> {
    const row = await this.first<{ latest: BigIntValue | null }>(this.scoped(scope).max({ latest: 'hold_until' }));
    return row?.latest === null || row?.latest === undefined ? undefined : new Date(toNumber(row.latest));
  }
}
