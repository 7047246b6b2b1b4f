import type { SettlementWriterDeps } from './settlement-batch';
import type { ItemJob } from '../../jobs';
import type { Merchant } from '../../merchants';
import { isCoreError, LockBusyError, MODES, type AccountScope, type Mode } from '../../common';
import { lastCompletePeriod, type SettlementPeriod } from '../domain/settlement-period';
import type { Settlement } from '../domain/settlement.entity';
import { openSettlement, SETTLEMENT_LOCK_TTL_MS, settlementLockKey } from './settlement-batch';

const SCHEDULED = ['daily', 'weekly', 'monthly'] as const;
const MERCHANT_PAGE = 100;

/** One merchant and mode whose last complete period may need its batch. */
export interface ScheduledSettlementItem {
  readonly merchant: Merchant;
  readonly scope: AccountScope;
  readonly period: SettlementPeriod;
}

/**
 * The batch made; `uncovered` when the available balance did not cover it (a lost dispute's fee:
 * tried again next pass); undefined when there was nothing to do.
 */
export type ScheduledSettlementOutcome = Settlement | 'uncovered' | undefined;

/**
 * The `settle-scheduled` job (docs/architecture.md, Settlements): for each merchant on a daily, weekly or
 * monthly schedule and each mode, the last complete UTC period gets one batch of the payments
 * released before its end and not yet settled, made like a manual settlement but left to the
 * payout job to pay. A period with nothing to settle gets no batch; one whose batch the available
 * balance does not cover is skipped and retried on the next pass. Batches are unique per
 * merchant, mode and period end, so two workers never make one twice.
 */
export class CreateScheduledSettlements implements ItemJob<ScheduledSettlementItem, ScheduledSettlementOutcome> {
  constructor(private readonly deps: SettlementWriterDeps) {}

  readonly name = 'settle-scheduled';
  readonly lanes = MODES;

  /** Merchants of a mode on a schedule whose last complete period could need a batch, by id. */
  async due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<ScheduledSettlementItem[]> {
    const items: ScheduledSettlementItem[] = [];
    let afterId: string | undefined;
    const wanted = limit + deferred.size;
    while (items.length < wanted) {
      const merchants = await this.deps.merchants.listBySchedule(SCHEDULED, { ...(afterId === undefined ? {} : { afterId }), limit: MERCHANT_PAGE });
      for (const merchant of merchants) {
        const period = lastCompletePeriod(merchant.settlementSchedule, this.deps.clock.now());
        if (period) items.push({ merchant, scope: { merchantId: merchant.id, mode }, period });
      }
      if (merchants.length < MERCHANT_PAGE) break;
      afterId = merchants[merchants.length - 1]?.id;
    }
    return items.slice(0, wanted);
  }

  idOf(item: ScheduledSettlementItem): string {
    return item.merchant.id;
  }

  progressed(outcome: ScheduledSettlementOutcome): boolean {
    return outcome !== undefined && outcome !== 'uncovered';
  }

  /** The period's batch for one merchant and mode: made, `uncovered`, or undefined (nothing to do). */
  handle(item: ScheduledSettlementItem): Promise<ScheduledSettlementOutcome> {
    return this.settleOne(item.merchant, item.scope, item.period);
  }

  private async settleOne(merchant: Merchant, scope: AccountScope, period: SettlementPeriod): Promise<ScheduledSettlementOutcome> {
    // Cheap check first: most passes find the period's batch made already.
    if (await this.deps.settlements.findScheduled(scope, period.end)) return undefined;
    try {
      return await this.deps.locks.withLock(settlementLockKey(scope), SETTLEMENT_LOCK_TTL_MS, () =>
        this.deps.uow.run(async (transaction) => {
          const self = transaction.bind(this);
          if (await self.deps.settlements.findScheduled(scope, period.end)) return undefined;
          // [start, end): a payment released exactly at the end belongs to the next period.
          const releasedBefore = new Date(period.end.getTime() - 1);
          return openSettlement(self.deps, { merchant, scope, trigger: 'scheduled', releasedBefore, period });
        }),
      );
    } catch (error) {
      if (isCoreError(error) && error.code === 'insufficient_available_balance') return 'uncovered';
      // Nothing waits, another worker made it, or the lock is busy: the next pass looks again.
      if (error instanceof LockBusyError) return undefined;
      if (isCoreError(error) && (error.code === 'nothing_to_settle' || error.category === 'conflict')) return undefined;
      throw error;
    }
  }
}
