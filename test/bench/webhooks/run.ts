import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publishEvent } from '@payments/core';
import { AesGcmSecretBox, CryptoRandomSource } from '@payments/node-runtime';
import { createSqlStorage, createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { freePort, runAdmin, serviceBaseEnv, startWorker } from '../../e2e/process';
import { startWebhookReceiver, type WebhookReceiver } from '../../e2e/webhook-receiver';
import { killStartedChildren, startChild } from '../child-process';
import { withWebhookSection } from '../doc-sections';
import { loadAverage, machineInfo, packageVersion } from '../machine';
import { summariseDirectory } from '../profile-summary';
import { median } from '../stats';
import { numberAt, textAt } from '../../fixtures';
import type { WebhookBaselineResult } from './baseline-main';
import { API_VERSION, benchEvent } from './events';
import { renderWebhookSection, renderWebhookTable, WEBHOOK_GOALS, type WebhookOptions, type WebhookRun, type WebhookVariant } from './report';

/** Compiled to test/dist/bench/webhooks/run.js: four levels up is the repository root. */
const ROOT = resolve(__dirname, '..', '..', '..', '..');
const REPORT_FILE = join(ROOT, 'docs', 'benchmarks.md');
const SERVER_URL = 'mysql://root@127.0.0.1:3306/test';
/** WEBHOOK_BATCH in apps/worker/src/jobs.ts: deliveries one relay pass claims and sends at once. */
const RELAY_CONCURRENCY = 50;
const WARMUP_DELIVERIES = 200;
const DEFAULT_WORKER_COUNTS = [1, 4] as const;

const USAGE = `Usage: npm run bench:webhooks -- [--deliveries N] [--reps N] [--tick MS] [--timeout S] [--workers 1,4] [--profile DIR]

Deliveries per second from the webhook relay (1 and 4 worker processes) to a local HTTPS receiver,
next to plain signed POSTs from one process, on a fresh MariaDB database at ${SERVER_URL}.
Writes the "Webhook delivery" section of docs/benchmarks.md.

  --deliveries N  deliveries per run (default 2000)
  --reps N        measured runs of each sender, interleaved (default 3, at least 3)
  --tick MS       PAYMENTS_TICK_MS of the workers (default 1000, the service's own default)
  --timeout S     longest a run may take to deliver everything (default 120)
  --workers LIST  worker process counts to measure, comma-separated (default 1,4)
  --profile DIR   profile the workers and the baseline (V8 CPU profiles, as --cpu-prof) into DIR
                  (a directory per run), and print a summary; development only: --reps may be 1
                  and nothing is written to docs/benchmarks.md (neither is it with other --workers)`;

/** What the command line asks for besides the report's options. */
interface RunFlags {
  readonly options: WebhookOptions;
  readonly profileDir?: string;
}

function parseOptions(argv: readonly string[]): RunFlags | undefined {
  const values: Record<string, number> = { deliveries: 2000, reps: 3, tick: 1000, timeout: 120 };
  let workerCounts: number[] = [...DEFAULT_WORKER_COUNTS];
  let profileDir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') return undefined;
    const name = flag.replace(/^--/, '');
    const raw = argv[i + 1];
    i += 1;
    if (name === 'profile' && raw !== undefined && raw !== '') {
      profileDir = resolve(raw);
      continue;
    }
    if (name === 'workers' && raw !== undefined) {
      workerCounts = raw.split(',').map(Number);
      if (workerCounts.length === 0 || workerCounts.some((count) => !Number.isInteger(count) || count < 1))
        throw new Error(`Bad option ${flag} ${raw}\n\n${USAGE}`);
      continue;
    }
    const value = Number(raw);
    if (!(name in values) || !Number.isInteger(value) || value < 1) throw new Error(`Bad option ${flag} ${raw ?? ''}\n\n${USAGE}`);
    values[name] = value;
  }
  if (values.reps < 3 && profileDir === undefined) throw new Error(`--reps must be at least 3\n\n${USAGE}`);
  return {
    options: {
      deliveries: values.deliveries,
      repetitions: values.reps,
      tickMs: values.tick,
      timeoutS: values.timeout,
      concurrency: RELAY_CONCURRENCY,
      workerCounts,
    },
    ...(profileDir === undefined ? {} : { profileDir }),
  };
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

type Worker = Awaited<ReturnType<typeof startWorker>>;
/** Workers started and not yet stopped, for the watchdog and for failures. */
const running = new Set<Worker>();

async function killWorkers(): Promise<void> {
  await Promise.all([...running].map((worker) => worker.kill()));
  running.clear();
}

/** Far past the planned time: kill every process this bench started and exit non-zero. */
function armWatchdog(options: WebhookOptions): void {
  const limitS = options.repetitions * (options.workerCounts.length + 1) * (options.timeoutS + 60) + 300;
  setTimeout(() => {
    process.stderr.write(`bench:webhooks: still running after ${limitS} s; killing its processes and giving up (a pt_* database may be left behind)\n`);
    killStartedChildren();
    for (const worker of running) void worker.kill();
    setTimeout(() => process.exit(2), 2_000).unref();
  }, limitS * 1000).unref();
}

interface Setup {
  readonly db: TestDatabase;
  readonly receiver: WebhookReceiver;
  readonly env: NodeJS.ProcessEnv;
  readonly merchantId: string;
  /** --profile: each run's processes write their .cpuprofile files under here. */
  readonly profileDir?: string;
}

/** NODE_OPTIONS for a process of run `label` when profiling (one directory per run), else nothing. */
function profiled(setup: Setup, label: string): NodeJS.ProcessEnv {
  if (setup.profileDir === undefined) return {};
  const dir = join(setup.profileDir, label);
  mkdirSync(dir, { recursive: true });
  return { NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile.js')}`, BENCH_CPU_PROFILE_DIR: dir };
}

/** Numbers the profiled runs so each gets its own directory. */
let runNumber = 0;

/** Writes `count` events through publishEvent (one delivery each), in transactions of 100. */
async function enqueue(setup: Setup, count: number): Promise<void> {
  const storage = createSqlStorage(setup.db.knex);
  const random = new CryptoRandomSource();
  const deps = { events: storage.events, webhookEndpoints: storage.webhookEndpoints, webhookDeliveries: storage.webhookDeliveries, random };
  for (let done = 0; done < count; done += 100) {
    await storage.uow.run(async (transaction) => {
      const bound = transaction.bind(deps);
      for (let i = done; i < Math.min(count, done + 100); i += 1) {
        const now = new Date();
        const queued = await publishEvent(bound, benchEvent(random, setup.merchantId, now), now);
        if (queued.length !== 1) throw new Error(`expected one delivery per event, got ${queued.length}`);
      }
    });
  }
}

/** Checks the receiver saw each of `count` events exactly once, all answered 200; returns first and last arrival. */
function checkArrivals(receiver: WebhookReceiver, count: number, what: string): { first: number; last: number } {
  const requests = receiver.requests;
  const ids = new Set(requests.map((request) => String(request.headers['webhook-id'])));
  if (requests.length !== count || ids.size !== count)
    throw new Error(`${what}: ${requests.length} requests, ${ids.size} distinct events, expected ${count} of each`);
  if (requests.some((request) => request.answeredStatus !== 200)) throw new Error(`${what}: a request was not answered 200`);
  const times = requests.map((request) => request.receivedAt.getTime());
  return { first: Math.min(...times), last: Math.max(...times) };
}

async function relayRun(setup: Setup, options: WebhookOptions, workers: number, count: number): Promise<WebhookRun & { enqueueS: number }> {
  const what = `relay, ${workers} worker(s)`;
  setup.receiver.clear();
  const enqueueStart = Date.now();
  await enqueue(setup, count);
  runNumber += 1;
  const env = { ...setup.env, ...profiled(setup, `${String(runNumber).padStart(2, '0')}-relay-${workers}w`) };
  const spawnedAt = Date.now();
  const started = await Promise.all(
    Array.from({ length: workers }, async () => {
      const worker = await startWorker(env);
      running.add(worker);
      return worker;
    }),
  );
  let waitFailure: { error: unknown } | undefined;
  try {
    await setup.receiver.waitFor(count, options.timeoutS * 1000);
    // Late duplicates would show up here.
    await new Promise((r) => setTimeout(r, 300));
  } catch (error) {
    waitFailure = { error };
  }
  const codes = await Promise.all(started.map((worker) => worker.stop()));
  for (const worker of started) running.delete(worker);
  // A worker that died explains a wait that failed: its exit is what to report.
  if (codes.some((code) => code !== 0)) throw new Error(`${what}: a worker exited with ${codes.join(', ')}`);
  if (waitFailure) throw waitFailure.error;
  const { first, last } = checkArrivals(setup.receiver, count, what);
  const left = await setup.db.knex('webhook_deliveries').whereIn('status', ['pending', 'failed']).count({ n: '*' });
  if (Number(left[0]?.n) !== 0) throw new Error(`${what}: ${String(left[0]?.n)} deliveries pending or failed after the run`);
  return {
    perSecond: count / ((last - first) / 1000),
    toLastS: (last - spawnedAt) / 1000,
    toFirstS: (first - spawnedAt) / 1000,
    enqueueS: (spawnedAt - enqueueStart) / 1000,
  };
}

async function baselineRun(setup: Setup, options: WebhookOptions): Promise<WebhookRun & { bodyBytes: number }> {
  setup.receiver.clear();
  const forkedAt = Date.now();
  const child = await startChild<WebhookBaselineResult>('webhook baseline', join(__dirname, 'baseline-main.js'), {
    PATH: process.env.PATH,
    BENCH_WEBHOOK_URL: setup.receiver.url,
    BENCH_WEBHOOK_ADDRESS: setup.receiver.address,
    BENCH_WEBHOOK_CA_FILE: setup.receiver.caFile,
    BENCH_MERCHANT_ID: setup.merchantId,
    BENCH_WEBHOOK_COUNT: String(options.deliveries),
    BENCH_WEBHOOK_CONCURRENCY: String(options.concurrency),
    ...profiled(setup, `${String((runNumber += 1)).padStart(2, '0')}-baseline`),
  });
  await child.stop();
  if (child.ready.failures > 0) throw new Error(`baseline: ${child.ready.failures} POSTs failed`);
  await setup.receiver.waitFor(options.deliveries, 5_000);
  const { first, last } = checkArrivals(setup.receiver, options.deliveries, 'baseline');
  return {
    perSecond: options.deliveries / ((last - first) / 1000),
    toLastS: (last - forkedAt) / 1000,
    toFirstS: (first - forkedAt) / 1000,
    bodyBytes: child.ready.bodyBytes,
  };
}

/** A merchant (admin CLI) and one enabled endpoint pointing at the receiver, written straight into the database as the e2e test does. */
async function prepare(db: TestDatabase, receiver: WebhookReceiver, dataDir: string, tickMs: number, profileDir: string | undefined): Promise<Setup> {
  const masterKey = randomBytes(32).toString('hex');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...serviceBaseEnv(dataDir, port),
    PAYMENTS_DATABASE_URL: db.url,
    PAYMENTS_MASTER_KEY: masterKey,
    PAYMENTS_TICK_MS: String(tickMs),
    LOG_LEVEL: 'info',
    ...receiver.env,
  };
  const admin = await runAdmin(env, [
    'merchant',
    'create',
    '--name',
    'Webhook bench',
    '--email',
    `webhook-bench-${Date.now()}@example.com`,
    '--password',
    'a long enough password',
  ]);
  if (admin.code !== 0) throw new Error(`admin merchant create failed:\n${admin.stderr}`);
  const merchantId = textAt(JSON.parse(admin.stdout), 'merchant', 'id');
  const now = new Date();
  await createSqlStorage(db.knex).webhookEndpoints.insert({
    id: `we_${randomBytes(10).toString('hex')}`,
    merchantId,
    mode: 'test',
    url: receiver.url,
    enabledEvents: [],
    apiVersion: API_VERSION,
    status: 'enabled',
    secretSealed: new AesGcmSecretBox(Buffer.from(masterKey, 'hex')).seal(randomBytes(32).toString('hex')),
    secretVersion: 1,
    created: now,
    updated: now,
  });
  return { db, receiver, env, merchantId, ...(profileDir === undefined ? {} : { profileDir }) };
}

/** The summary of every run's profiles, run by run, each process's CPU time (all threads) first. */
function summariseProfiles(profileDir: string): string {
  return readdirSync(profileDir)
    .sort()
    .map((run) => {
      const dir = join(profileDir, run);
      const usage = readdirSync(dir)
        .filter((name) => name.endsWith('.usage.json'))
        .map((name) => {
          const usage: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'));
          const [userMs, systemMs] = [numberAt(usage, 'userMs'), numberAt(usage, 'systemMs')];
          return `${name}: CPU ${Math.round(userMs + systemMs)} ms (user ${Math.round(userMs)}, system ${Math.round(systemMs)}), start-up included`;
        });
      return `[${run}]\n${usage.join('\n')}\n${summariseDirectory(dir, 30)}`;
    })
    .join('\n');
}

async function main(): Promise<number> {
  const flags = parseOptions(process.argv.slice(2));
  if (flags === undefined) {
    log(USAGE);
    return 0;
  }
  const { options, profileDir } = flags;
  armWatchdog(options);
  const date = new Date();
  const machine = machineInfo();
  const loadBefore = loadAverage();
  if (loadBefore > machine.logicalCores / 2)
    log(`bench:webhooks: warning: load average ${loadBefore} on ${machine.logicalCores} cores; other work will skew the figures`);
  log(`bench:webhooks: ${options.deliveries} deliveries per run, ${options.repetitions} rounds of baseline, ${options.workerCounts.join(' and ')} worker(s)`);

  const receiver = await startWebhookReceiver({ hostname: 'bench-hooks.test.example' });
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-webhook-bench-'));
  let db: TestDatabase | undefined;
  try {
    db = await createTestDatabase({ serverUrl: SERVER_URL });
    const versionRows = await db.knex.raw<[Array<{ v: string }>]>('select version() as v');
    const mariadb = versionRows[0][0]?.v ?? '?';
    const setup = await prepare(db, receiver, dataDir, options.tickMs, profileDir);

    const warmup = await relayRun(setup, options, 1, Math.min(WARMUP_DELIVERIES, options.deliveries));
    log(`warm-up (discarded): relay, 1 worker: ${Math.round(warmup.perSecond)} deliveries/s`);
    const variants: WebhookVariant[] = [
      { name: 'baseline (1 process, plain signed POSTs)', runs: [] },
      ...options.workerCounts.map((count) => ({
        name: `relay, ${count} worker process${count === 1 ? '' : 'es'}`,
        runs: [],
        ...(WEBHOOK_GOALS[count] === undefined ? {} : { goal: WEBHOOK_GOALS[count] }),
      })),
    ];
    const enqueueTimes: number[] = [];
    let bodyBytes = 0;
    for (let round = 1; round <= options.repetitions; round += 1) {
      const base = await baselineRun(setup, options);
      bodyBytes = base.bodyBytes;
      variants[0]?.runs.push(base);
      log(`round ${round}: baseline ${Math.round(base.perSecond)} deliveries/s, last after ${base.toLastS.toFixed(2)} s`);
      for (const [index, count] of options.workerCounts.entries()) {
        const run = await relayRun(setup, options, count, options.deliveries);
        enqueueTimes.push(run.enqueueS);
        variants[index + 1]?.runs.push(run);
        log(
          `round ${round}: relay, ${count} worker(s) ${Math.round(run.perSecond)} deliveries/s, last after ${run.toLastS.toFixed(2)} s (enqueue took ${run.enqueueS.toFixed(2)} s)`,
        );
      }
    }

    const forTheRecord = profileDir === undefined && options.workerCounts.join(',') === DEFAULT_WORKER_COUNTS.join(',');
    if (!forTheRecord) {
      // Profiled workers are slower, and other worker counts are not the report: print, do not record.
      if (profileDir !== undefined) log(`\nprofiles:\n${summariseProfiles(profileDir)}`);
      log(`\n${renderWebhookTable(variants)}\n\nNot written to ${REPORT_FILE} (--profile / --workers runs are for development).`);
      return 0;
    }
    const section = renderWebhookSection({
      date,
      machine,
      mariadb,
      libraries: Object.fromEntries(['mysql2', 'knex'].map((name) => [name, packageVersion(name)])),
      load: { before: loadBefore, after: loadAverage() },
      options,
      bodyBytes,
      enqueueS: median(enqueueTimes),
      variants,
    });
    const existing = existsSync(REPORT_FILE) ? readFileSync(REPORT_FILE, 'utf8') : '# Benchmarks\n';
    writeFileSync(REPORT_FILE, withWebhookSection(existing, section));
    log(`\n${renderWebhookTable(variants)}\n\nWritten to ${REPORT_FILE}`);
    return 0;
  } finally {
    await killWorkers();
    killStartedChildren();
    await receiver.close();
    await db?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`\nBENCH:WEBHOOKS FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
