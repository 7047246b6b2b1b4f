import { AppConfig, AppMetrics, AppWebhookBacklog, type AppContainer, type Config, type ServiceMetrics } from '@payments/api';
import { Clock, JobItemFailures, ReconciliationStore, VerifyLedger } from '@payments/core';
import type { Job, JobObserver } from './scheduler';

/** Breaks one verification reports at most; the gauge counts them, the admin CLI lists them. */
const LEDGER_VERIFY_LIMIT = 1000;

/** The scheduler's runs as metrics: lag and duration per job (job names are a fixed set). */
export function jobMetrics(metrics: ServiceMetrics): JobObserver {
  return {
    jobRan(job, lane, { lagMs, durationMs, outcome }) {
      metrics.schedulerLag.set({ job, lane }, lagMs / 1000);
      metrics.jobDuration.observe({ job, lane, outcome }, durationMs / 1000);
    },
  };
}

/** A relay pass's outcomes into the attempts counter (core returns the statuses; metrics stay out of core). */
export function countRelayOutcomes(metrics: ServiceMetrics, outcomes: ReadonlyArray<{ outcome: string }>): void {
  const delivered = outcomes.filter(({ outcome }) => outcome === 'delivered').length;
  const failed = outcomes.length - delivered;
  if (delivered > 0) metrics.webhookAttempts.inc({ outcome: 'delivered' }, delivered);
  if (failed > 0) metrics.webhookAttempts.inc({ outcome: 'failed' }, failed);
}

/**
 * `ledger verify` on a timer (PAYMENTS_LEDGER_VERIFY_EVERY_S, 0 = off), so a break pages someone
 * through the `payments_ledger_verify_ok` gauge instead of waiting for an operator to run it.
 * Exclusive: one worker verifies per interval; the others keep their last sample.
 */
export function ledgerVerifyJobs(app: AppContainer): Job[] {
  const everySeconds = app.get<Config>(AppConfig).ledgerVerifyEverySeconds;
  if (everySeconds === 0) return [];
  const verify = app.get(VerifyLedger);
  const metrics = app.get<ServiceMetrics>(AppMetrics);
  return [
    {
      name: 'verify-ledger',
      everyMs: everySeconds * 1000,
      run: async () => {
        const report = await verify.execute({ limit: LEDGER_VERIFY_LIMIT });
        metrics.ledgerVerifyOk.set(report.ok ? 1 : 0);
        metrics.ledgerVerifyBreaks.set(report.breaks.length);
        metrics.ledgerVerifyTimestamp.set(Date.now() / 1000);
        return 0;
      },
    },
  ];
}

/** The worker's side of the metrics: the backlog, the failed items waiting and the open reconciliation breaks are sampled from the database on each scrape. */
export function enableWorkerMetrics(app: AppContainer): void {
  const metrics = app.get<ServiceMetrics>(AppMetrics);
  metrics.sampleBacklogWith(app.get<() => Promise<number>>(AppWebhookBacklog));
  const failures = app.get<JobItemFailures>(JobItemFailures);
  const clock = app.get<Clock>(Clock);
  metrics.sampleWaitingItemsWith(() => failures.countWaiting(clock.now()));
  const reconciliation = app.get<ReconciliationStore>(ReconciliationStore);
  metrics.sampleReconciliationBreaksWith(() => reconciliation.countOpen());
}
