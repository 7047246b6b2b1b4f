import { AppMetrics, type AppContainer, type ServiceMetrics } from '@payments/api';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import {
  Clock,
  DashboardSessionRepository,
  DeliverNotices,
  RelayWebhookDeliveries,
  ExpirePaymentIntents,
  IdempotencyStore,
  ReconcileAttempts,
  ReconcileDisputes,
  ReleaseFunds,
  ReportChannelSettlements,
} from '@payments/core';
import type { Job } from './scheduler';
import { countRelayOutcomes, ledgerVerifyJobs } from './observability';
import { settlementJobs } from './settlement-jobs';

/** How many objects one job handles per tick, so a backlog drains over ticks without long passes. */
const BATCH = 200;
/** Webhook POSTs of one pass run concurrently, each up to the 10 s timeout. */
const WEBHOOK_BATCH = 50;
/**
 * A relay pass that claimed a full batch goes again at once (more are likely due) for up to this
 * long before the other jobs get their turn, instead of running a dozen idle jobs and sleeping a
 * tick between batches of a backlog.
 */
const RELAY_DRAIN_MS = 1_000;

/** The worker's periodic jobs, in the order a tick runs them. */
export function workerJobs(app: AppContainer): Job[] {
  const simulator = app.get(SimulatorPaymentChannel);
  const expire = app.get(ExpirePaymentIntents);
  const reconcile = app.get(ReconcileAttempts);
  const reconcileDisputes = app.get(ReconcileDisputes);
  const settlements = app.get(ReportChannelSettlements);
  const release = app.get(ReleaseFunds);
  const idempotency = app.get<IdempotencyStore>(IdempotencyStore);
  const clock = app.get<Clock>(Clock);
  const dashboardSessions = app.get<DashboardSessionRepository>(DashboardSessionRepository);
  const notices = app.get(DeliverNotices);
  const relay = app.get(RelayWebhookDeliveries);
  const metrics = app.get<ServiceMetrics>(AppMetrics);
  return [
    // The simulated channel's own clock: magic outcomes and settlement of paid orders.
    { name: 'simulator-channel', everyMs: 0, run: () => simulator.tick(BATCH) },
    { name: 'expire-payment-intents', everyMs: 0, run: () => expire.execute({ limit: BATCH }) },
    { name: 'reconcile-attempts', everyMs: 0, run: () => reconcile.execute({ limit: BATCH }) },
    // Open disputes that heard nothing for PAYMENTS_DISPUTE_RECONCILE_AFTER_S: a lost ruling notice.
    // Its threshold is in hours, so asking once a minute is plenty.
    { name: 'reconcile-disputes', everyMs: 60_000, run: () => reconcileDisputes.execute({ limit: BATCH }) },
    { name: 'report-channel-settlements', everyMs: 0, run: () => settlements.execute({ limit: BATCH }) },
    { name: 'release-funds', everyMs: 0, run: () => release.execute({ limit: BATCH }) },
    // Settlements after releases, so a release of this tick is settled in the same pass.
    ...settlementJobs(app),
    { name: 'purge-idempotency-keys', everyMs: 60_000, run: () => idempotency.purgeExpired(clock.now()) },
    // Expired dashboard sessions can never sign anyone in again; the audit log keeps their story.
    { name: 'purge-dashboard-sessions', everyMs: 60_000, run: () => dashboardSessions.deleteExpiredBefore(clock.now()) },
    // Notices for the account's email (payout destination changes), through the EmailSender.
    { name: 'deliver-notices', everyMs: 0, run: () => notices.execute({ limit: BATCH }) },
    // Webhook deliveries due now (fan-out, retries, resends), leased so several workers share them.
    {
      name: 'relay-webhooks',
      everyMs: 0,
      exclusive: false,
      run: async () => {
        const started = Date.now();
        let claimed = 0;
        for (;;) {
          const result = await relay.execute({ limit: WEBHOOK_BATCH });
          countRelayOutcomes(metrics, result);
          claimed += result.claimed;
          if (result.claimed < WEBHOOK_BATCH || Date.now() - started >= RELAY_DRAIN_MS) return claimed;
        }
      },
    },
    // The ledger's invariants for the metrics (PAYMENTS_LEDGER_VERIFY_EVERY_S; none when 0).
    ...ledgerVerifyJobs(app),
  ];
}
