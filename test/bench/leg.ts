import { join } from 'node:path';
import type autocannon from 'autocannon';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { startChild } from './child-process';
import { Cleanup } from './cleanup';
import { floorEnv, serviceEnv } from './environment';
import { processCpuUs } from './cpu';
import { createFloorDatabase } from './floor-database';
import type { FloorCounters } from './floor-store';
import type { FloorReady, LadderReady, ServiceReady } from './ipc';
import { LoadError, runLoad, type LoadSettings, type Sample } from './load';
import type { BenchOptions, DatabaseKind } from './options';
import { runFixedRate, type RateSample } from './rate-load';
import { materialise, scenarios, type Scenario, type Side, type Target } from './scenarios';
import { prepareReplay, replayRequest, seedIntents } from './seed';
import { durableCommits, type Statement, type StatementCounters } from './statements';
import { median } from './stats';

/** The statements of one request of the service, as captured. */
export interface CapturedRequest {
  /** SQL text only (no bound values), BEGIN and COMMIT included. */
  readonly sql: readonly string[];
  /** COMMITs plus writes outside a transaction (see durableCommits). */
  readonly commits: number;
}

/** The p99 comparison at a fixed rate of half the floor's measured maximum. */
export interface HalfLoadResult {
  readonly rate: number;
  readonly service: readonly RateSample[];
  readonly floor: readonly RateSample[];
}

/** One measured run of a side, with the CPU its server's process spent on it. */
export interface MeasuredSample extends Sample {
  /** The server process's user + system CPU time over the run ÷ the requests completed, in µs. */
  readonly cpuUsPerRequest: number;
}

/** One side of a scenario: its runs and what its database did meanwhile. */
export interface SideResult {
  readonly label: string;
  readonly target: Target;
  readonly samples: readonly MeasuredSample[];
  /** INSERT/UPDATE/DELETE statements during its runs, warm-up included. */
  readonly writes: number;
}

export interface ScenarioResult {
  readonly id: string;
  readonly name: string;
  readonly service: SideResult;
  /** The first is the goal's reference. */
  readonly floors: readonly SideResult[];
  readonly halfLoad?: HalfLoadResult;
}

export interface LegResult {
  readonly kind: DatabaseKind;
  /** The database server's own version string. */
  readonly version: string;
  /** Whether the service ran with Redis on this leg. */
  readonly redis: boolean;
  /** Whether promise hooks were on in each server process (the floor's and the ladder's must be off). */
  readonly promiseHooks: { readonly service: boolean; readonly floor: boolean; readonly ladder?: boolean };
  readonly scenarios: readonly ScenarioResult[];
  /** Each scenario's statements of one service request, for the report's lists and per-request figures. */
  readonly statementLog: Readonly<Record<string, CapturedRequest>>;
  /** Where the --profile .cpuprofile files went, if profiling. */
  readonly profileDir?: string;
}

export type Log = (line: string) => void;

/** A pause between runs, so the previous run's in-flight requests drain before the next starts. */
export const SETTLE_MS = 250;
/** The p99 comparison runs at this share of the floor's median maximum rate. */
export const HALF_LOAD_SHARE = 0.5;
/** The scenarios whose p99 at half load is measured (the goal names create). */
const HALF_LOAD_SCENARIOS = new Set(['create']);

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

async function databaseVersion(database: TestDatabase, kind: DatabaseKind): Promise<string> {
  if (kind === 'sqlite') {
    const rows = await database.knex.raw<Array<{ version: string }>>('select sqlite_version() as version');
    return rows[0]?.version ?? 'unknown';
  }
  // mysql2 answers raw queries as [rows, fields].
  const [rows] = await database.knex.raw<[Array<{ version: string }>]>('select version() as version');
  return rows[0]?.version ?? 'unknown';
}

async function countIntents(database: TestDatabase): Promise<number> {
  const row = await database.knex('payment_intents').count({ count: '*' }).first<{ count: number | string } | undefined>();
  return Number(row?.count ?? 0);
}

function formatSample(sample: MeasuredSample): string {
  return `${Math.round(sample.requestsPerSecond).toString().padStart(6)} req/s  p50 ${sample.p50Ms} ms  p99 ${sample.p99Ms} ms  ${Math.round(sample.cpuUsPerRequest)} µs CPU/req`;
}

interface Targets {
  /** The ladder's servers only when the leg runs the ladder. */
  readonly urls: Readonly<Partial<Record<Target, string>>>;
  /** The process serving each target, for its CPU time. */
  readonly pids: Readonly<Partial<Record<Target, number>>>;
  readonly serviceControl: string;
  readonly floorControl: string;
  readonly ladderControl?: string;
  readonly serviceDatabase: TestDatabase;
}

function known<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`No ${what} in this leg (is the ladder off?)`);
  return value;
}

/** What a control port of the bench's own servers (floor-control.ts, service-main.ts) answers. */
async function controlJson<T>(url: string, init?: RequestInit): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the bench wrote both ends: its server sends a T
  return (await (await fetch(url, init)).json()) as T;
}

/**
 * What a side's database has done so far and how many payment_intents rows it holds (undefined
 * where the scenario does not need the count). The bare Hapi server has no database: zeros.
 */
async function sideState(targets: Targets, target: Target, needRows: boolean): Promise<{ counters: StatementCounters; rows: number }> {
  if (target === 'hapi') return { counters: { statements: 0, writes: 0, commits: 0 }, rows: 0 };
  if (target === 'floor' || target === 'hapi-driver' || target === 'hapi-knex' || target === 'hapi-knex-uow') {
    // The floor process's stores (driver and knex) share one counters port; the unit-of-work rung has its own.
    const control = target === 'hapi-knex-uow' ? known(targets.ladderControl, 'ladder process') : targets.floorControl;
    const floor = await controlJson<FloorCounters & { intents: number }>(`${control}/counters`);
    return { counters: floor, rows: floor.intents };
  }
  const service = await controlJson<{ api: StatementCounters; noIo: StatementCounters }>(`${targets.serviceControl}/counters`);
  return { counters: target === 'no-io' ? service.noIo : service.api, rows: needRows ? await countIntents(targets.serviceDatabase) : 0 };
}

/** Sends one request to the service while its statements are captured. */
async function captureOne(targets: Targets, request: autocannon.Request): Promise<Statement[]> {
  await fetch(`${targets.serviceControl}/capture/start`, { method: 'POST' });
  const response = await fetch(`${known(targets.urls.service, 'service')}${request.path ?? '/'}`, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = await response.text();
  const statements = await controlJson<Statement[]>(`${targets.serviceControl}/capture/stop`, { method: 'POST' });
  if (response.status < 200 || response.status >= 300)
    throw new Error(`Capturing ${request.method} ${request.path}: the service answered ${response.status}: ${body.slice(0, 300)}`);
  return statements;
}

/** The second of two requests of the scenario on the quiet service (the first may fill caches). */
async function captureStatements(scenario: Scenario, targets: Targets): Promise<CapturedRequest> {
  await captureOne(targets, materialise(scenario.service.request));
  const statements = await captureOne(targets, materialise(scenario.service.request));
  return { sql: statements.map((s) => `${s.sql}${s.failed ? '   -- fails: duplicate key' : ''}`), commits: durableCommits(statements) };
}

interface SideRun {
  readonly side: Side;
  readonly samples: MeasuredSample[];
  statements: number;
  writes: number;
}

/**
 * One autocannon run of one side, with its database's counters and the rows check around it, and
 * its server process's CPU time read just before and after the load (other servers in the same
 * process are idle meanwhile: sides run one at a time).
 */
async function runSide(run: SideRun, scenario: Scenario, targets: Targets, label: string, settings: LoadSettings): Promise<MeasuredSample> {
  const { target } = run.side;
  const pid = known(targets.pids[target], `process for ${target}`);
  const before = await sideState(targets, target, scenario.insertsOneRowPer2xx);
  const cpuBefore = processCpuUs(pid);
  const sample = await runLoad(label, known(targets.urls[target], `server for ${target}`), run.side.request, settings);
  const cpuUsPerRequest = (processCpuUs(pid) - cpuBefore) / sample.completed;
  const after = await sideState(targets, target, scenario.insertsOneRowPer2xx);
  run.statements += after.counters.statements - before.counters.statements;
  run.writes += after.counters.writes - before.counters.writes;
  if (scenario.insertsOneRowPer2xx && after.rows - before.rows < sample.ok) {
    // Every 201 was sent after its commit, so the table must have grown by at least that many.
    throw new LoadError(`${label}: ${sample.ok} answers were 2xx but only ${after.rows - before.rows} payment_intents rows appeared`);
  }
  return { ...sample, cpuUsPerRequest };
}

function sideResult(run: SideRun): SideResult {
  return { label: run.side.label, target: run.side.target, samples: run.samples, writes: run.writes };
}

/** Service and floors turn about: warm-up each, then service, floor(s), service, floor(s) … */
async function runScenario(scenario: Scenario, targets: Targets, options: BenchOptions, log: Log): Promise<ScenarioResult> {
  const runs: SideRun[] = [scenario.service, ...scenario.floors].map((side) => ({ side, samples: [], statements: 0, writes: 0 }));
  const measured: LoadSettings = { connections: options.connections, durationS: options.durationS };
  if (options.warmupS > 0) {
    for (const run of runs) {
      await runSide(run, scenario, targets, `${scenario.name} / ${run.side.label} / warm-up`, { ...measured, durationS: options.warmupS });
      await settle();
    }
  }
  for (let repetition = 1; repetition <= options.repetitions; repetition += 1) {
    for (const run of runs) {
      const label = `${scenario.name} / ${run.side.label} / run ${repetition}/${options.repetitions}`;
      const sample = await runSide(run, scenario, targets, label, measured);
      run.samples.push(sample);
      log(`  ${label.padEnd(60)} ${formatSample(sample)}`);
      await settle();
    }
  }
  if (scenario.noWrites) {
    for (const run of runs) {
      if (run.writes > 0) throw new LoadError(`${scenario.name}: the ${run.side.label} ran ${run.writes} INSERT/UPDATE/DELETE statements; it must run none`);
    }
  }
  const noIo = runs.find((run) => run.side.target === 'no-io');
  // Its very first request fills the memoised key and merchant lookups (2 statements); then none.
  if (noIo && noIo.statements > 2)
    throw new LoadError(`${scenario.name}: the no-I/O server ran ${noIo.statements} SQL statements; it must run none after its first request`);

  const [service, floor] = runs;
  let halfLoad: HalfLoadResult | undefined;
  if (HALF_LOAD_SCENARIOS.has(scenario.id)) {
    const rate = Math.max(1, Math.round(HALF_LOAD_SHARE * median(floor.samples.map((s) => s.requestsPerSecond))));
    const at: Record<'service' | 'floor', RateSample[]> = { service: [], floor: [] };
    for (let repetition = 1; repetition <= options.repetitions; repetition += 1) {
      for (const [name, run] of [
        ['service', service],
        ['floor', floor],
      ] as const) {
        const label = `${scenario.name} / ${run.side.label} / ${rate} req/s run ${repetition}/${options.repetitions}`;
        const sample = await runFixedRate(label, known(targets.urls[run.side.target], 'server'), run.side.request, rate, options.durationS);
        at[name].push(sample);
        log(
          `  ${label.padEnd(60)} ${Math.round(sample.achievedRate).toString().padStart(6)} req/s  p50 ${Math.round(sample.p50Us)} µs  p99 ${Math.round(sample.p99Us)} µs`,
        );
        await settle();
      }
    }
    halfLoad = { rate, ...at };
  }
  return { id: scenario.id, name: scenario.name, service: sideResult(service), floors: runs.slice(1).map(sideResult), ...(halfLoad ? { halfLoad } : {}) };
}

/**
 * One database's whole measurement: a fresh database for the service and one for the floor, both
 * servers, the seed data, the scenarios; then servers stopped and databases dropped, even on failure.
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
  const floorDatabase = await createFloorDatabase(kind, options.mariadbUrl);
  cleanup.add('drop the floor database', () => floorDatabase.destroy());
  const version = await databaseVersion(database, kind);
  // The names only, never the URLs: they may carry a password.
  const name = kind === 'mariadb' ? new URL(database.url).pathname.slice(1) : 'a temporary SQLite file';
  log(`[${kind}] server version ${version}; fresh databases: ${name} (service), ${floorDatabase.name} (floor)`);

  const profileDir = options.profileDir === undefined ? undefined : join(options.profileDir, kind);
  const execArgv = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const redisUrl = kind === 'mariadb' ? options.redisUrl : undefined;
  const service = await startChild<ServiceReady>('service', join(__dirname, 'service-main.js'), serviceEnv(database.url, redisUrl), execArgv);
  cleanup.add('stop the service', () => service.stop());
  const floor = await startChild<FloorReady>(
    'floor',
    join(__dirname, 'floor-main.js'),
    { ...floorEnv(floorDatabase.url), ...(options.ladder ? { BENCH_FLOOR_LADDER: '1' } : {}) },
    execArgv,
  );
  cleanup.add('stop the floor', () => floor.stop());
  // The floor made the schema and key the unit-of-work rung uses, so it starts after the floor is up.
  const ladder = options.ladder
    ? await startChild<LadderReady>('ladder (hapi + knex + unit of work)', join(__dirname, 'ladder-main.js'), floorEnv(floorDatabase.url), execArgv)
    : undefined;
  if (ladder) cleanup.add('stop the ladder process', () => ladder.stop());
  // The ladder's steps mean what they say only if promise hooks are off in the floor's and the ladder's processes.
  if (floor.ready.promiseHooks) throw new Error('Promise hooks are on in the floor process; something there entered an AsyncLocalStorage');
  if (ladder?.ready.promiseHooks)
    throw new Error('Promise hooks are on in the hapi + knex + unit of work process; something there entered an AsyncLocalStorage');
  const local = (port: number): string => `http://127.0.0.1:${port}`;
  const floorLadder = floor.ready.ladder;
  if (options.ladder && floorLadder === undefined) throw new Error('The floor process did not start the ladder servers');
  const targets: Targets = {
    urls: {
      service: local(service.ready.port),
      'no-io': local(service.ready.noIoPort),
      floor: local(floor.ready.port),
      hapi: local(floor.ready.hapiPort),
      ...(floorLadder ? { 'hapi-driver': local(floorLadder.hapiDriverPort), 'hapi-knex': local(floorLadder.hapiKnexPort) } : {}),
      ...(ladder ? { 'hapi-knex-uow': local(ladder.ready.port) } : {}),
    },
    pids: {
      service: service.pid,
      'no-io': service.pid,
      floor: floor.pid,
      hapi: floor.pid,
      'hapi-driver': floor.pid,
      'hapi-knex': floor.pid,
      ...(ladder ? { 'hapi-knex-uow': ladder.pid } : {}),
    },
    serviceControl: local(service.ready.controlPort),
    floorControl: local(floor.ready.controlPort),
    ...(ladder ? { ladderControl: local(ladder.ready.controlPort) } : {}),
    serviceDatabase: database,
  };
  const serviceUrl = known(targets.urls.service, 'service');
  const floorUrl = known(targets.urls.floor, 'floor');

  const serviceIntentIds = await seedIntents(serviceUrl, service.ready.testKey, options.seedCount);
  const floorIntentIds = await seedIntents(floorUrl, floor.ready.apiKey, options.seedCount);
  const replay = replayRequest();
  await prepareReplay(serviceUrl, service.ready.testKey, replay);
  await prepareReplay(floorUrl, floor.ready.apiKey, replay);
  const context = { serviceKey: service.ready.testKey, floorKey: floor.ready.apiKey, serviceIntentIds, floorIntentIds, replay, ladder: options.ladder };
  const all = scenarios(context).filter((scenario) => options.scenarios === undefined || options.scenarios.includes(scenario.id));
  const statementLog: Record<string, CapturedRequest> = {};
  for (const scenario of all) if (scenario.capturesStatements) statementLog[scenario.id] = await captureStatements(scenario, targets);
  log(
    `[${kind}] service on ${targets.urls.service} (${redisUrl ? 'with' : 'without'} Redis; no-I/O stack on ${targets.urls['no-io']}), ` +
      `floor on ${floorUrl} (bare Hapi on ${targets.urls.hapi})` +
      (ladder
        ? `, ladder: hapi + driver ${targets.urls['hapi-driver']}, hapi + knex ${targets.urls['hapi-knex']}, hapi + knex + unit of work ${targets.urls['hapi-knex-uow']}`
        : '') +
      `; ${options.seedCount} intents seeded on each; promise hooks on: service ${service.ready.promiseHooks ? 'yes' : 'no'}, floor no${ladder ? ', unit-of-work rung no' : ''}`,
  );

  const results: ScenarioResult[] = [];
  for (const scenario of all) {
    log(`[${kind}] ${scenario.name}`);
    results.push(await runScenario(scenario, targets, options, log));
  }
  const promiseHooks = { service: service.ready.promiseHooks, floor: floor.ready.promiseHooks, ...(ladder ? { ladder: ladder.ready.promiseHooks } : {}) };
  return { kind, version, redis: redisUrl !== undefined, promiseHooks, scenarios: results, statementLog, ...(profileDir ? { profileDir } : {}) };
}
