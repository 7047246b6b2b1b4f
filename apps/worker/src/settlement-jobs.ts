import { AppLogger, type AppContainer, type Logger } from '@payments/api';
import { CreateScheduledSettlements, PaySettlements, VerifyPayoutDestinations, type Mode } from '@payments/core';
import { itemJob } from './item-job';
import type { Job } from './scheduler';

/** Remembers what was logged, so a condition that lasts for hours is logged once, not every tick. */
class OnceLog {
  private readonly seen = new Map<string, string>();

  /** True the first time `key` is seen with `state`, and again whenever its state changes. */
  changed(key: string, state: string): boolean {
    if (this.seen.get(key) === state) return false;
    this.seen.set(key, state);
    // A bounded memory: old keys are forgotten (at worst logged once more).
    if (this.seen.size > 10_000) {
      const oldest = this.seen.keys().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    return true;
  }
}

/**
 * The settlement jobs of one mode: scheduled batches, paying unfinished settlements (and asking
 * the provider about processing ones), and, in live mode, verifying bank accounts with the payout
 * provider. Conditions that last (a batch the balance does not cover, a settlement waiting for its
 * destination) are logged once per change, not every tick.
 */
export function settlementJobs(app: AppContainer, mode: Mode): Job[] {
  const logger = app.get<Logger>(AppLogger);
  const once = new OnceLog();
  const verify = app.get(VerifyPayoutDestinations);
  return [
    // Periods end at 00:00 UTC: a pass a minute is prompt enough, and cheap.
    itemJob(app, app.get(CreateScheduledSettlements), mode, {
      everyMs: 60_000,
      limit: 100_000,
      onPass: ({ outcomes }) => {
        for (const { item, outcome } of outcomes) {
          if (outcome !== 'uncovered' || !once.changed(`uncovered:${item.merchant.id}:${mode}:${item.period.end.toISOString()}`, 'uncovered')) continue;
          logger.warn(
            { merchant: item.merchant.id, mode, period_end: item.period.end.toISOString() },
            'scheduled settlement skipped: the available balance does not cover it; retried next pass',
          );
        }
      },
    }),
    itemJob(app, app.get(PaySettlements), mode, {
      onPass: ({ outcomes }) => {
        for (const { outcome } of outcomes) {
          if (outcome.kind !== 'waiting') continue;
          const { settlement, reason } = outcome;
          if (!once.changed(`waiting:${settlement.id}`, reason)) continue;
          const message =
            reason === 'no_payout_gateway'
              ? 'live settlement waits: no payout provider is configured (PAYMENTS_PAYOUT_REST_URL, PAYMENTS_PAYOUT_REST_SECRET)'
              : 'live settlement waits for its payout destination';
          logger.warn({ settlement: settlement.id, merchant: settlement.merchantId, mode: settlement.mode, reason }, message);
        }
      },
    }),
    ...(verify.lanes.includes(mode) ? [itemJob(app, verify, mode, { everyMs: 60_000 })] : []),
  ];
}
