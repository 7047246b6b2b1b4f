import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { startChild } from './child-process';
import { Cleanup } from './cleanup';
import { baselineEnv, serviceEnv } from './environment';
import type { BaselineReady, ServiceReady } from './ipc';
import { LoadError, runLoad, type LoadSettings, type Sample } from './load';
import type { BenchOptions, DatabaseKind } from './options';
import { runFixedRate, type RateSample } from './rate-load';
import { materialise, scenarios, type Scenario } from './scenarios';
import { prepareReplay, seedIntents } from './seed';
import { buildTemplate, type Statement, type StatementCounters, type StatementTemplate } from './statements';
import { median } from './stats';

/** The p99 comparison at a fixed rate of half the baseline's measured maximum. */
export interface HalfLoadResult {
  readonly rate: number;
  readonly service: readonly RateSample[];
  readonly baseline: readonly RateSample[];
}

export interface ScenarioResult {
  readonly id: string;
  readonly name: string;
  readonly service: readonly Sample[];
  readonly baseline: readonly Sample[];
  /** INSERT/UPDATE/DELETE statements the service ran during this scenario's service runs (warm-up included). */
  readonly serviceWrites: number;
  /** Statements per request the service ran (and the baseline replays). */
  readonly statements: number;
  readonly halfLoad?: HalfLoadResult;
}

export interface LegResult {
  readonly kind: DatabaseKind;
  /** The database server's own version string. */
  readonly version: string;
  readonly scenarios: readonly ScenarioResult[];
  /** Each scenario's captured statement sequence (SQL text only), for the report. */
  readonly statementLog: Readonly<Record<string, readonly string[]>>;
  /** Where the --profile .cpuprofile files went, if profiling. */
  readonly profileDir?: string;
}

export type Log = (line: string) => void;

/** A pause between runs, so the previous run's in-flight requests drain before the next starts. */
export const SETTLE_MS = 250;
/** The p99 comparison runs at this share of the baseline's median maximum rate. */
export const HALF_LOAD_SHARE = 0.5;
/** The scenarios whose p99 at half load is measured (the goal names create). */
const HALF_LOAD_SCENARIOS = new Set(['create']);

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

async function databaseVersion(database: TestDatabase, kind: DatabaseKind): Promise<string> {
  if (kind === 'sqlite') {
    const rows = (await database.knex.raw('select sqlite_version() as version')) as Array<{ version: string }>;
    return rows[0]?.version ?? 'unknown';
  }
  // mysql2 answers raw queries as [rows, fields].
  const [rows] = (await database.knex.raw('select version() as version')) as [Array<{ version: string }>];
  return rows[0]?.version ?? 'unknown';
}

async function countIntents(database: TestDatabase): Promise<number> {
  const row = (await database.knex('payment_intents').count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
}

function formatSample(sample: Sample): string {
  return `${Math.round(sample.requestsPerSecond).toString().padStart(6)} req/s  p50 ${sample.p50Ms} ms  p99 ${sample.p99Ms} ms`;
}

interface Targets {
  readonly serviceUrl: string;
  readonly noIoUrl: string;
  readonly baselineUrl: string;
  readonly controlUrl: string;
}

/** The statements the service process ran so far: the API's knex and the no-I/O server's. */
async function counters(controlUrl: string): Promise<{ api: StatementCounters; noIo: StatementCounters }> {
  const response = await fetch(`${controlUrl}/counters`);
  return (await response.json()) as { api: StatementCounters; noIo: StatementCounters };
}

/** Sends one request to the service while its statements are captured. */
async function captureOne(targets: Targets, request: autocannon.Request): Promise<{ statements: Statement[]; status: number; body: string }> {
  await fetch(`${targets.controlUrl}/capture/start`, { method: 'POST' });
  const response = await fetch(`${targets.serviceUrl}${request.path ?? '/'}`, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = await response.text();
  const statements = (await (await fetch(`${targets.controlUrl}/capture/stop`, { method: 'POST' })).json()) as Statement[];
  if (response.status < 200 || response.status >= 300) throw new Error(`Capturing ${request.method} ${request.path}: the service answered ${response.status}: ${body.slice(0, 300)}`);
  return { statements, status: response.status, body };
}

/** Two requests of the scenario, one after the other on a quiet service, make its template. */
async function captureTemplate(scenario: Scenario, targets: Targets): Promise<StatementTemplate> {
  const first = await captureOne(targets, materialise(scenario.service));
  const request = materialise(scenario.service);
  const capturedAt = Date.now();
  const second = await captureOne(targets, request);
  return buildTemplate(first.statements, second.statements, scenario.inputsOf(request), { status: second.status, body: second.body }, capturedAt);
}

/** Service and baseline turn about: warm-up each, then service, baseline, service, baseline … */
async function runScenario(scenario: Scenario, targets: Targets, options: BenchOptions, database: TestDatabase, statements: number, log: Log): Promise<ScenarioResult> {
  const serviceUrl = scenario.target === 'no-io' ? targets.noIoUrl : targets.serviceUrl;
  const sides = [
    { side: 'service', url: serviceUrl, request: scenario.service, samples: [] as Sample[] },
    { side: 'baseline', url: targets.baselineUrl, request: scenario.baseline, samples: [] as Sample[] },
  ] as const;
  const measured: LoadSettings = { connections: options.connections, durationS: options.durationS };
  let serviceWrites = 0;
  let noIoStatements = 0;
  const measure = async <T>(side: string, run: () => Promise<T>): Promise<T> => {
    const before = side === 'service' ? await counters(targets.controlUrl) : undefined;
    const result = await run();
    if (before) {
      const after = await counters(targets.controlUrl);
      const counted = scenario.target === 'no-io' ? after.noIo : after.api;
      serviceWrites += counted.writes - (scenario.target === 'no-io' ? before.noIo : before.api).writes;
      noIoStatements += after.noIo.statements - before.noIo.statements;
    }
    return result;
  };
  if (options.warmupS > 0) {
    for (const { side, url, request } of sides) {
      await measure(side, () => runLoad(`${scenario.name} / ${side} / warm-up`, url, request, { ...measured, durationS: options.warmupS }));
      await settle();
    }
  }
  for (let repetition = 1; repetition <= options.repetitions; repetition += 1) {
    for (const { side, url, request, samples } of sides) {
      const label = `${scenario.name} / ${side} / run ${repetition}/${options.repetitions}`;
      const before = scenario.insertsOneRowPer2xx ? await countIntents(database) : 0;
      const sample = await measure(side, () => runLoad(label, url, request, measured));
      if (scenario.insertsOneRowPer2xx) {
        // Every 201 was sent after its commit, so the table must have grown by at least that many.
        const inserted = (await countIntents(database)) - before;
        if (inserted < sample.ok) throw new LoadError(`${label}: ${sample.ok} answers were 2xx but only ${inserted} payment_intents rows appeared`);
      }
      samples.push(sample);
      log(`  ${label.padEnd(56)} ${formatSample(sample)}`);
      await settle();
    }
  }
  if (scenario.noWrites && serviceWrites > 0) throw new LoadError(`${scenario.name}: the service ran ${serviceWrites} INSERT/UPDATE/DELETE statements; it must run none`);
  // Its very first request fills the memoised key and merchant lookups (2 statements); then none.
  if (scenario.target === 'no-io' && noIoStatements > 2) {
    throw new LoadError(`${scenario.name}: the no-I/O server ran ${noIoStatements} SQL statements; it must run none after its first request`);
  }

  let halfLoad: HalfLoadResult | undefined;
  if (HALF_LOAD_SCENARIOS.has(scenario.id)) {
    const rate = Math.max(1, Math.round(HALF_LOAD_SHARE * median(sides[1].samples.map((s) => s.requestsPerSecond))));
    const service: RateSample[] = [];
    const baseline: RateSample[] = [];
    for (let repetition = 1; repetition <= options.repetitions; repetition += 1) {
      for (const [side, url, request, into] of [
        ['service', serviceUrl, scenario.service, service],
        ['baseline', targets.baselineUrl, scenario.baseline, baseline],
      ] as const) {
        const label = `${scenario.name} / ${side} / ${rate} req/s run ${repetition}/${options.repetitions}`;
        const sample = await runFixedRate(label, url, request, rate, options.durationS);
        into.push(sample);
        log(`  ${label.padEnd(56)} ${Math.round(sample.achievedRate).toString().padStart(6)} req/s  p50 ${Math.round(sample.p50Us)} µs  p99 ${Math.round(sample.p99Us)} µs`);
        await settle();
      }
    }
    halfLoad = { rate, service, baseline };
  }
  return { id: scenario.id, name: scenario.name, service: sides[0].samples, baseline: sides[1].samples, serviceWrites, statements, ...(halfLoad ? { halfLoad } : {}) };
}

/**
 * One database's whole measurement: a fresh database, the service and the baseline on it, the
 * seed data, the scenarios; then servers stopped and the database dropped, even on failure.
 */
export async function runLeg(kind: DatabaseKind, options: BenchOptions, log: Log): Promise<LegResult> {
  const cleanup = new Cleanup();
  let result: LegResult;
  try {
    result = await measureLeg(kind, options, log, cleanup);
  } catch (error) {
    // Clean up, but let the failure that stopped the run be the one reported.
    await cleanup.runAll().catch((cleanupError: unknown) => log(`[${kind}] ${cleanupError instanceof Error ? cleanupError.message : String(cleanupError)}`));
    throw error;
  }
  await cleanup.runAll();
  return result;
}

async function measureLeg(kind: DatabaseKind, options: BenchOptions, log: Log, cleanup: Cleanup): Promise<LegResult> {
  // An empty serverUrl makes createTestDatabase use a temporary SQLite file even when
  // PAYMENTS_TEST_DATABASE_URL is set in the environment.
  const database = await createTestDatabase({ serverUrl: kind === 'mariadb' ? options.mariadbUrl : '' });
  cleanup.add('drop the bench database', () => database.destroy());
  const version = await databaseVersion(database, kind);
  // The name only, never the URL: it may carry a password.
  const name = kind === 'mariadb' ? new URL(database.url).pathname.slice(1) : 'a temporary SQLite file';
  log(`[${kind}] server version ${version}; fresh database ${name}`);

  const scratch = mkdtempSync(join(tmpdir(), 'payments-bench-'));
  cleanup.add('remove the scratch directory', async () => rmSync(scratch, { recursive: true, force: true }));
  const profileDir = options.profileDir === undefined ? undefined : join(options.profileDir, kind);
  const execArgv = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const service = await startChild<ServiceReady>('service', join(__dirname, 'service-main.js'), serviceEnv(database.url), execArgv);
  cleanup.add('stop the service', () => service.stop());
  const { testKey } = service.ready;
  const partial = {
    serviceUrl: `http://127.0.0.1:${service.ready.port}`,
    noIoUrl: `http://127.0.0.1:${service.ready.noIoPort}`,
    controlUrl: `http://127.0.0.1:${service.ready.controlPort}`,
  };

  const intentIds = await seedIntents(partial.serviceUrl, testKey, options.seedCount);
  const replay = await prepareReplay(partial.serviceUrl, testKey);
  const all = scenarios({ testKey, intentIds, replay }).filter((scenario) => options.scenarios === undefined || options.scenarios.includes(scenario.id));
  const templates: Record<string, StatementTemplate> = {};
  for (const scenario of all) if (scenario.replaysStatements) templates[scenario.id] = await captureTemplate(scenario, { ...partial, baselineUrl: '' });
  const templatesFile = join(scratch, 'templates.json');
  writeFileSync(templatesFile, JSON.stringify(templates));
  const statementLog = Object.fromEntries(Object.entries(templates).map(([id, template]) => [id, template.statements.map((s) => `${s.sql}${s.failed ? '   -- fails: duplicate key' : ''}`)]));

  const baseline = await startChild<BaselineReady>('baseline', join(__dirname, 'baseline-main.js'), baselineEnv(database.url, templatesFile), execArgv);
  cleanup.add('stop the baseline', () => baseline.stop());
  const targets: Targets = { ...partial, baselineUrl: `http://127.0.0.1:${baseline.ready.port}` };
  log(`[${kind}] service on ${targets.serviceUrl} (no-I/O stack on ${targets.noIoUrl}), baseline on ${targets.baselineUrl}; ${intentIds.length} intents seeded`);

  const results: ScenarioResult[] = [];
  for (const scenario of all) {
    log(`[${kind}] ${scenario.name}`);
    results.push(await runScenario(scenario, targets, options, database, templates[scenario.id]?.statements.length ?? 0, log));
  }
  return { kind, version, scenarios: results, statementLog, ...(profileDir ? { profileDir } : {}) };
}
