import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from './logger';

/** Seconds buckets for request latency: 1 ms to 10 s, the range an API call lives in. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for a worker job's pass: a relay pass may wait on 10 s webhook timeouts. */
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The Prometheus series of one process, in a registry of its own (tests build many containers in
 * one process; a global registry would mix them). Labels are bounded by construction: route
 * templates, methods, status codes, job names and fixed outcomes, never ids, paths or keys.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'payments_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status; _count is the request rate.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly idempotencyReplays = new Counter({
    name: 'payments_idempotency_replays_total',
    help: 'Answers replayed from the idempotency store (Idempotent-Replayed: true), by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly webhookBacklog = new Gauge({
    name: 'payments_webhook_backlog',
    help: 'Webhook deliveries due now and not leased by a relay pass (sampled on scrape by the worker).',
    registers: [this.registry],
    collect: () => this.sample(this.backlogSource, (backlog) => this.webhookBacklog.set(backlog)),
  });

  readonly webhookAttempts = new Counter({
    name: 'payments_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, or failed (retried later or given up).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly schedulerLag = new Gauge({
    name: 'payments_scheduler_lag_seconds',
    help: 'How late the last pass of a worker job started compared with when it was due, by job and lane (live, test, platform).',
    labelNames: ['job', 'lane'] as const,
    registers: [this.registry],
  });

  readonly jobDuration = new Histogram({
    name: 'payments_job_duration_seconds',
    help: 'Duration of one worker job pass, by job, lane and outcome (ok, failed, busy: another worker held it).',
    labelNames: ['job', 'lane', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  readonly jobItemFailures = new Counter({
    name: 'payments_job_item_failures_total',
    help: 'Items a worker job could not handle (recorded, skipped, retried with backoff), by job, lane and error code.',
    labelNames: ['job', 'lane', 'code'] as const,
    registers: [this.registry],
  });

  readonly jobItemsWaiting = new Gauge({
    name: 'payments_job_items_waiting_retry',
    help: 'Failed items of a worker job waiting for their next try, by job and lane (sampled on scrape by the worker).',
    labelNames: ['job', 'lane'] as const,
    registers: [this.registry],
    collect: () =>
      this.sample(this.waitingSource, (counts) => {
        this.jobItemsWaiting.reset();
        for (const { job, lane, count } of counts) this.jobItemsWaiting.set({ job, lane }, count);
      }),
  });

  readonly ledgerVerifyOk = new Gauge({
    name: 'payments_ledger_verify_ok',
    help: '1 when the last ledger verification found no break, 0 when it found one.',
    registers: [this.registry],
  });

  readonly ledgerVerifyBreaks = new Gauge({
    name: 'payments_ledger_verify_breaks',
    help: 'Breaks the last ledger verification found (capped by its limit).',
    registers: [this.registry],
  });

  readonly ledgerVerifyTimestamp = new Gauge({
    name: 'payments_ledger_verify_last_run_timestamp_seconds',
    help: 'When the last ledger verification finished (Unix seconds).',
    registers: [this.registry],
  });

  readonly duplicatePayments = new Counter({
    name: 'payments_duplicate_payments_total',
    help: 'Attempts that succeeded after another attempt had paid their payment intent: money owed back to the payer (admin: payments duplicates), by mode.',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });

  readonly reconciliationBreaks = new Gauge({
    name: 'payments_reconciliation_breaks',
    help: "Open breaks between the channels' statements and the ledger (admin: recon breaks), by channel, mode and reason (sampled on scrape by the worker).",
    labelNames: ['channel', 'mode', 'reason'] as const,
    registers: [this.registry],
    collect: () =>
      this.sample(this.breaksSource, (counts) => {
        this.reconciliationBreaks.reset();
        for (const { channel, mode, reason, count } of counts) this.reconciliationBreaks.set({ channel, mode, reason }, count);
      }),
  });

  readonly reconciliationBreaksOpened = new Counter({
    name: 'payments_reconciliation_breaks_opened_total',
    help: "Breaks the reconciliation with the channels' statements opened, by channel, mode and reason.",
    labelNames: ['channel', 'mode', 'reason'] as const,
    registers: [this.registry],
  });

  readonly reconciliationBreaksCleared = new Counter({
    name: 'payments_reconciliation_breaks_cleared_total',
    help: 'Breaks that matched later and were cleared, by channel, mode and reason.',
    labelNames: ['channel', 'mode', 'reason'] as const,
    registers: [this.registry],
  });

  private backlogSource: (() => Promise<number>) | undefined;
  private breaksSource: (() => Promise<ReadonlyArray<{ channel: string; mode: string; reason: string; count: number }>>) | undefined;
  private waitingSource: (() => Promise<ReadonlyArray<{ job: string; lane: string; count: number }>>) | undefined;
  private server: Server | undefined;
  private defaultsCollected = false;

  /** The worker tells how to count the backlog; an API-only process leaves it unset (no double count). */
  sampleBacklogWith(source: () => Promise<number>): void {
    this.backlogSource = source;
  }

  /** The worker tells how to count failed items waiting for a retry (the job item failures table). */
  sampleWaitingItemsWith(source: () => Promise<ReadonlyArray<{ job: string; lane: string; count: number }>>): void {
    this.waitingSource = source;
  }

  /** The worker tells how to count the open reconciliation breaks (the breaks table). */
  sampleReconciliationBreaksWith(source: () => Promise<ReadonlyArray<{ channel: string; mode: string; reason: string; count: number }>>): void {
    this.breaksSource = source;
  }

  /**
   * A scrape's sample of a gauge: read from the source the worker set (none in an API-only process)
   * and applied; when that fails the gauge keeps its last sample, and readiness and the logs say why.
   */
  private async sample<T>(source: (() => Promise<T>) | undefined, apply: (value: T) => void): Promise<void> {
    if (source === undefined) return;
    try {
      apply(await source());
    } catch {
      // The database is down: keep the last sample.
    }
  }

  /**
   * Serves `GET /metrics` on its own port, away from the public API (PAYMENTS_METRICS_PORT, 0 = off).
   * Idempotent: `npm start` runs API and worker in one process and gets one server. A port already
   * taken is logged, not fatal: metrics are not worth refusing payments for.
   */
  async listen(options: { host: string; port: number }, logger: Logger): Promise<AddressInfo | undefined> {
    if (options.port === 0 && this.server === undefined) return undefined;
    if (this.server) return tcpAddress(this.server);
    if (!this.defaultsCollected) {
      collectDefaultMetrics({ register: this.registry, prefix: 'payments_' });
      this.defaultsCollected = true;
    }
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      this.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    });
    this.server = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => resolve());
      });
    } catch (error) {
      this.server = undefined;
      logger.error({ err: error, host: options.host, port: options.port }, 'metrics server could not listen; metrics are off');
      return undefined;
    }
    const address = tcpAddress(server);
    if (address) logger.info({ url: `http://${address.address}:${address.port}/metrics` }, 'metrics listening');
    return address;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The port the server listens on; undefined while it is not listening yet. */
function tcpAddress(server: Server): AddressInfo | undefined {
  const address = server.address();
  return address === null || typeof address === 'string' ? undefined : address;
}
