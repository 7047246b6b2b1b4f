import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';
import { startChild } from './child-process';
import { Cleanup } from './cleanup';
import { baselineEnv, serviceEnv } from './environment';
import type { BaselineReady, ServiceReady } from './ipc';
import { LoadError, runLoad, type LoadSettings, type Sample } from './load';
import type { BenchOptions, DatabaseKind } from './options';
import { scenarios, type Scenario } from './scenarios';
import { prepareReplay, seedIntents } from './seed';

export interface ScenarioResult {
  readonly name: string;
  readonly service: readonly Sample[];
  readonly baseline: readonly Sample[];
}

export interface LegResult {
  readonly kind: DatabaseKind;
  /** The database server's own version string. */
  readonly version: string;
  readonly scenarios: readonly ScenarioResult[];
}

export type Log = (line: string) => void;

/** A pause between runs, so the previous run's in-flight requests drain before the next starts. */
export const SETTLE_MS = 250;

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
  readonly baselineUrl: string;
}

/** Service and baseline turn about: warm-up each, then service, baseline, service, baseline … */
async function runScenario(scenario: Scenario, targets: Targets, options: BenchOptions, database: TestDatabase, log: Log): Promise<ScenarioResult> {
  const sides = [
    { side: 'service', url: targets.serviceUrl, request: scenario.service, samples: [] as Sample[] },
    { side: 'baseline', url: targets.baselineUrl, request: scenario.baseline, samples: [] as Sample[] },
  ] as const;
  const measured: LoadSettings = { connections: options.connections, durationS: options.durationS };
  if (options.warmupS > 0) {
    for (const { side, url, request } of sides) {
      await runLoad(`${scenario.name} / ${side} / warm-up`, url, request, { ...measured, durationS: options.warmupS });
      await settle();
    }
  }
  for (let repetition = 1; repetition <= options.repetitions; repetition += 1) {
    for (const { side, url, request, samples } of sides) {
      const label = `${scenario.name} / ${side} / run ${repetition}/${options.repetitions}`;
      const before = scenario.insertsOneRowPer2xx ? await countIntents(database) : 0;
      const sample = await runLoad(label, url, request, measured);
      if (scenario.insertsOneRowPer2xx) {
        // Every 201 was sent after its commit, so the table must have grown by at least that many.
        const inserted = (await countIntents(database)) - before;
        if (inserted < sample.ok) throw new LoadError(`${label}: ${sample.ok} answers were 2xx but only ${inserted} payment_intents rows appeared`);
      }
      samples.push(sample);
      log(`  ${label.padEnd(48)} ${formatSample(sample)}`);
      await settle();
    }
  }
  return { name: scenario.name, service: sides[0].samples, baseline: sides[1].samples };
}

/**
 * One database's whole measurement: a fresh database, the service and the baseline on it, the
 * seed data, the four scenarios; then servers stopped and the database dropped, even on failure.
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

  const service = await startChild<ServiceReady>('service', join(__dirname, 'service-main.js'), serviceEnv(database.url));
  cleanup.add('stop the service', () => service.stop());
  const { merchantId, testKey } = service.ready;
  const baseline = await startChild<BaselineReady>('baseline', join(__dirname, 'baseline-main.js'), baselineEnv(database.url, merchantId));
  cleanup.add('stop the baseline', () => baseline.stop());
  const targets: Targets = { serviceUrl: `http://127.0.0.1:${service.ready.port}`, baselineUrl: `http://127.0.0.1:${baseline.ready.port}` };

  const intentIds = await seedIntents(targets.serviceUrl, testKey, options.seedCount);
  const replay = await prepareReplay(targets.serviceUrl, testKey);
  log(`[${kind}] service on ${targets.serviceUrl}, baseline on ${targets.baselineUrl}; ${intentIds.length} intents seeded`);

  const results: ScenarioResult[] = [];
  for (const scenario of scenarios({ testKey, intentIds, replay })) {
    log(`[${kind}] ${scenario.name}`);
    results.push(await runScenario(scenario, targets, options, database, log));
  }
  return { kind, version, scenarios: results };
}
