import type { Ledger } from '../../ledger';
import { merchantAccount } from '../../ledger';
import type { Merchant, MerchantRepository } from '../../merchants';
import type { AccountScope, Clock } from '../../common';
import { notFound } from '../../common';
import { currentPeriod, lastCompletePeriod } from '../domain/settlement-period';
import type { SettlementRepository } from '../ports/settlement.repository.port';
import { planSettlement } from './settlement-batch';

/** What the next settlement of a merchant and mode would pay, and when (schema NextSettlement in docs/openapi.json). */
export interface NextSettlement {
  /** Minor units of `currency`: all parts of a scheduled batch together; 0 when nothing would be paid. */
  readonly amount: bigint;
  readonly currency: string;
  readonly trigger: 'scheduled' | 'manual';
  /** When a schedule makes it; absent for a manual merchant, and when nothing would be paid. */
  readonly scheduledFor?: Date;
}

export interface GetNextSettlementDeps {
  readonly settlements: SettlementRepository;
  readonly ledger: Ledger;
  readonly merchants: MerchantRepository;
  readonly clock: Clock;
}

/**
 * The next settlement, computed as a real one is (`planSettlement`) without writing anything
 * (docs/settlements.md, "The next settlement"):
 * - a manual merchant: what "pay out now" (`POST /v1/settlements`) would pay now;
 * - a scheduled one: the batch of its last complete period when it is not made yet and would pay
 *   something (made on the worker's next pass: `scheduledFor` is now); else the batch made when
 *   the current period ends, of what is available now and of the payments whose release is due
 *   before that (their money still in pending), as far as is known now: a refund, a dispute or a
 *   payment the channel settles later changes it.
 */
export class GetNextSettlement {
  constructor(private readonly deps: GetNextSettlementDeps) {}

  async execute(scope: AccountScope): Promise<NextSettlement> {
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    if (!merchant) throw notFound('merchant', scope.merchantId);
    const currency = merchant.settlementCurrency;
    const now = this.deps.clock.now();
    const account = merchantAccount(scope, 'available', currency);
    const available = (await this.deps.ledger.balances(scope)).find((row) => row.account === account)?.balance ?? 0n;
    const plan = (releasedBefore: Date, trigger: 'scheduled' | 'manual') =>
      planSettlement(this.deps, { merchant, scope, trigger, releasedBefore }, now, available);

    const schedule = merchant.settlementSchedule;
    const last = lastCompletePeriod(schedule, now);
    const open = currentPeriod(schedule, now);
    if (!last || !open) {
      const manual = await plan(now, 'manual');
      return { amount: BigInt(manual.parts[0]?.amount ?? 0), currency, trigger: 'manual' };
    }
    if (!(await this.deps.settlements.findScheduled(scope, last.end))) {
      // [start, end): a payment released exactly at the end belongs to the next period.
      const overdue = await plan(new Date(last.end.getTime() - 1), 'scheduled');
      if (overdue.total > 0n) return { amount: overdue.total, currency, trigger: 'scheduled', scheduledFor: now };
    }
    const next = await plan(new Date(open.end.getTime() - 1), 'scheduled');
    const total = next.total + (await this.releasedBy(scope, merchant, open.end));
    return total > 0n ? { amount: total, currency, trigger: 'scheduled', scheduledFor: open.end } : { amount: 0n, currency, trigger: 'scheduled' };
  }

  /** What the payments whose release is due before `end` hold in pending: their release moves it to available. */
  private async releasedBy(scope: AccountScope, merchant: Merchant, end: Date): Promise<bigint> {
    const currency = merchant.settlementCurrency;
    const releasing = (await this.deps.settlements.findReleasing(scope, end)).filter(
      (intent) => intent.net !== undefined && intent.net.currency === currency && intent.net.amount > 0,
    );
    if (releasing.length === 0) return 0n;
    return this.deps.ledger.paymentsTotal(
      merchantAccount(scope, 'pending', currency),
      releasing.map((intent) => intent.id),
    );
  }
}
