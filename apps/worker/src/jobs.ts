import { AppConfig, AppMetrics, type AppContainer, type Config, type ServiceMetrics } from '@payments/api';
import { SimulatorPaymentChannel } from '@payments/channel-simulator';
import {
  Clock,
  DashboardSessionRepository,
  DeliverNotices,
  ExpirePaymentIntents,
  IdempotencyStore,
  ReconcileAttempts,
  ReconcileChannel,
  ReconcileDisputes,
  ReconcileRefunds,
  RelayWebhookDeliveries,
  ReleaseFunds,
  ReportChannelSettlements,
  RunItemJobs,
} from '@payments/core';
import { itemJob } from './item-job';
import type { Job, Lane } from './scheduler';
import { countRelayOutcomes, ledgerVerifyJobs } from './observability';
import { settlementJobs } from './settlement-jobs';

/** Webhook deliveries one relay pass claims; they are sent many at once (the relay's concurrency). */
const WEBHOOK_BATCH = 50;
/**
 * A relay pass that claimed a full batch goes again at once (more are likely due) for up to this
 * long before the other jobs get their turn, instead of running a dozen idle jobs and sleeping a
 * tick between batches of a backlog. Cut short, the relay says more is due and its lane's next
 * pass starts without the tick's pause (`Job.moreDue`), so at the default 1 s tick a backlog is
 * not sent half the time and idle half.
 */
const RELAY_DRAIN_MS = 1_000;

/**
 * The worker's periodic jobs in three lanes that never wait for each other: live money, test
 * money (with the simulated channel's clock) and the platform's own chores. Within a lane, jobs
 * run in the order listed.
 */
export function workerLanes(app: AppContainer): Lane[] {
  const moneyJobs = (mode: 'live' | 'test'): Job[] => [
    itemJob(app, app.get(ExpirePaymentIntents), mode),
    itemJob(app, app.get(ReconcileAttempts), mode),
    // Open disputes that heard nothing for PAYMENTS_DISPUTE_RECONCILE_AFTER_S: a lost ruling notice.
    // Its threshold is in hours, so asking once a minute is plenty.
    itemJob(app, app.get(ReconcileDisputes), mode, { everyMs: 60_000 }),
    // Refunds left pending for PAYMENTS_REFUND_RECONCILE_AFTER_S (a lost notice, a channel that was down).
    itemJob(app, app.get(ReconcileRefunds), mode, { everyMs: 60_000 }),
    itemJob(app, app.get(ReportChannelSettlements), mode),
    itemJob(app, app.get(ReleaseFunds), mode),
    // Settlements after releases, so a release of this tick is settled in the same pass.
    ...settlementJobs(app, mode),
    relayJob(app, mode),
    // Last: it reads the channels' statements over the network, and sees what this pass booked.
    ...reconciliationJobs(app, mode),
  ];
  return [
    { name: 'live', jobs: moneyJobs('live') },
    { name: 'test', jobs: [...simulatorJobs(app), ...moneyJobs('test')] },
    { name: 'platform', jobs: platformJobs(app) },
  ];
}

/**
 * The reconciliation with the channels' statements (docs/reconciliation.md), every
 * PAYMENTS_RECON_EVERY_S (none when 0): each channel of the lane's mode is an item of its own.
 */
export function reconciliationJobs(app: AppContainer, mode: 'live' | 'test'): Job[] {
  const everySeconds = app.get<Config>(AppConfig).reconEverySeconds;
  if (everySeconds === 0) return [];
  return [itemJob(app, app.get(ReconcileChannel), mode, { everyMs: everySeconds * 1000 })];
}

/** The simulated channel's own clock (test mode only): settling paid orders, magic outcomes, refund reports, refused callbacks. */
function simulatorJobs(app: AppContainer): Job[] {
  const simulator = app.get(SimulatorPaymentChannel).jobs();
  return [
    { name: 'simulator-settle-paid', everyMs: 0, run: simulator.settlePaid },
    itemJob(app, simulator.outcomes, 'test'),
    itemJob(app, simulator.refunds, 'test'),
    itemJob(app, simulator.callbacks, 'test'),
  ];
}

/** Webhook deliveries due now (fan-out, retries, resends), leased so several workers share them. */
export function relayJob(app: AppContainer, mode: 'live' | 'test', options: { drainMs?: number } = {}): Job {
  const relay = app.get(RelayWebhookDeliveries);
  const runner = app.get(RunItemJobs);
  const metrics = app.get<ServiceMetrics>(AppMetrics);
  const drainMs = options.drainMs ?? RELAY_DRAIN_MS;
  let moreDue = false;
  return {
    name: relay.name,
    everyMs: 0,
    exclusive: false,
    run: async () => {
      const started = Date.now();
      let delivered = 0;
      moreDue = false;
      for (;;) {
        const result = await runner.run(relay, mode, WEBHOOK_BATCH);
        countRelayOutcomes(metrics, result.outcomes);
        delivered += result.progressed;
        const claimed = result.outcomes.length + result.failed;
        if (claimed < WEBHOOK_BATCH) return delivered;
        if (Date.now() - started >= drainMs) {
          moreDue = true;
          return delivered;
        }
      }
    },
    moreDue: () => moreDue,
  };
}

/** Chores of no mode: purges, notices for account emails, the ledger check. */
function platformJobs(app: AppContainer): Job[] {
  const idempotency = app.get<IdempotencyStore>(IdempotencyStore);
  const clock = app.get<Clock>(Clock);
  const dashboardSessions = app.get<DashboardSessionRepository>(DashboardSessionRepository);
  return [
    { name: 'purge-idempotency-keys', everyMs: 60_000, run: () => idempotency.purgeExpired(clock.now()) },
    // Expired dashboard sessions can never sign anyone in again; the audit log keeps their story.
    { name: 'purge-dashboard-sessions', everyMs: 60_000, run: () => dashboardSessions.deleteExpiredBefore(clock.now()) },
    // Notices for the account's email (payout destination changes), through the EmailSender.
    itemJob(app, app.get(DeliverNotices), 'platform'),
    // The ledger's invariants for the metrics (PAYMENTS_LEDGER_VERIFY_EVERY_S; none when 0).
    ...ledgerVerifyJobs(app),
    ...traceContextJobs(app, clock),
  ];
}

/** How long a subject's trace context is kept for its next step: past any release delay. */
export const TRACE_CONTEXT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** With tracing on: trace contexts older than the retention are forgotten (a later step then starts a trace of its own). */
function traceContextJobs(app: AppContainer, clock: Clock): Job[] {
  const contexts = app.traceContexts;
  if (!contexts) return [];
  return [
    {
      name: 'purge-trace-contexts',
      everyMs: 3_600_000,
      run: () => contexts.purgeBefore(new Date(clock.now().getTime() - TRACE_CONTEXT_RETENTION_MS)),
    },
  ];
}
