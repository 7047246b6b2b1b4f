import { AppLogger, type AppContainer, type Logger } from '@payments/api';
import { CreateScheduledSettlements, PaySettlements, VerifyPayoutDestinations } from '@payments/core';
import type { Job } from './scheduler';

const BATCH = 200;

/** Remembers what was logged, so a condition that lasts for hours is logged once, not every tick. */
class OnceLog {
  private readonly seen = new Map<string, string>();

  /** True the first time `key` is seen with `state`, and again whenever its state changes. */
  changed(key: string, state: string): boolean {
    if (this.seen.get(key) === state) return false;
    this.seen.set(key, state);
    // A bounded memory: old keys are forgotten (at worst logged once more).
    if (this.seen.size > 10_000) this.seen.delete(this.seen.keys().next().value as string);
    return true;
  }
}

/**
 * The settlement jobs (issue 6): scheduled batches, paying unfinished settlements (and asking the
 * provider about processing ones), and verifying live bank accounts with the payout provider.
 */
export function settlementJobs(app: AppContainer): Job[] {
  const logger = app.get<Logger>(AppLogger);
  const scheduled = app.get(CreateScheduledSettlements);
  const pay = app.get(PaySettlements);
  const verify = app.get(VerifyPayoutDestinations);
  const once = new OnceLog();
  return [
    {
      name: 'settle-scheduled',
      // Periods end at 00:00 UTC: a pass a minute is prompt enough, and cheap.
      everyMs: 60_000,
      run: async () => {
        const summary = await scheduled.execute({ limit: 100_000 });
        for (const { scope, period } of summary.uncovered) {
          if (once.changed(`uncovered:${scope.merchantId}:${scope.mode}:${period.end.toISOString()}`, 'uncovered')) {
            logger.warn({ merchant: scope.merchantId, mode: scope.mode, period_end: period.end.toISOString() }, 'scheduled settlement skipped: the available balance does not cover it; retried next pass');
          }
        }
        return summary.created.length;
      },
    },
    {
      name: 'pay-settlements',
      everyMs: 0,
      run: async () => {
        const summary = await pay.execute({ limit: BATCH });
        for (const { settlement, reason } of summary.waiting) {
          if (!once.changed(`waiting:${settlement.id}`, reason)) continue;
          const message =
            reason === 'no_payout_gateway'
              ? 'live settlement waits: no payout provider is configured (PAYMENTS_PAYOUT_REST_URL, PAYMENTS_PAYOUT_REST_SECRET)'
              : 'live settlement waits for its payout destination';
          logger.warn({ settlement: settlement.id, merchant: settlement.merchantId, mode: settlement.mode, reason }, message);
        }
        return summary.advanced;
      },
    },
    {
      name: 'verify-payout-destinations',
      everyMs: 60_000,
      run: async () => {
        const summary = await verify.execute({ limit: BATCH });
        return summary.verified + summary.rejected;
      },
    },
  ];
}
