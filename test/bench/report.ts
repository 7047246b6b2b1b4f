import { SETTLE_MS, type LegResult, type ScenarioResult } from './leg';
import type { MachineInfo } from './machine';
import { describeOptions, type BenchOptions, type DatabaseKind } from './options';
import { median } from './stats';

export interface Report {
  readonly date: Date;
  readonly machine: MachineInfo;
  readonly options: BenchOptions;
  readonly legs: readonly LegResult[];
  /** 1-minute load average before and after the run. */
  readonly load: { readonly before: number; readonly after: number };
  /** Installed versions of the libraries that shape the numbers. */
  readonly libraries: Readonly<Record<string, string | undefined>>;
}

const TITLES: Record<DatabaseKind, string> = { sqlite: 'SQLite', mariadb: 'MariaDB' };

/** Whole numbers for throughput; latency as autocannon gives it, at most one decimal. */
const rps = (value: number): string => Math.round(value).toLocaleString('en-US');
const ms = (value: number): string => String(Math.round(value * 10) / 10);

interface Row {
  readonly scenario: string;
  readonly serviceRps: number;
  readonly baselineRps: number;
  readonly service: string;
  readonly baseline: string;
  readonly spread: string;
}

function latencies(samples: ScenarioResult['service']): string {
  return `${ms(median(samples.map((s) => s.p50Ms)))} / ${ms(median(samples.map((s) => s.p99Ms)))}`;
}

function range(samples: ScenarioResult['service']): string {
  const values = samples.map((s) => s.requestsPerSecond);
  return `${rps(Math.min(...values))}–${rps(Math.max(...values))}`;
}

function rowOf(result: ScenarioResult): Row {
  return {
    scenario: result.name,
    serviceRps: median(result.service.map((s) => s.requestsPerSecond)),
    baselineRps: median(result.baseline.map((s) => s.requestsPerSecond)),
    service: latencies(result.service),
    baseline: latencies(result.baseline),
    spread: `service ${range(result.service)}, baseline ${range(result.baseline)}`,
  };
}

/** One database's table, as Markdown (also what is printed to stdout). */
export function renderTable(leg: LegResult): string {
  const lines = [
    '| scenario | service req/s | baseline req/s | ratio | service p50/p99 ms | baseline p50/p99 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of leg.scenarios.map(rowOf)) {
    const ratio = (row.serviceRps / row.baselineRps).toFixed(2);
    lines.push(`| ${row.scenario} | ${rps(row.serviceRps)} | ${rps(row.baselineRps)} | ${ratio} | ${row.service} | ${row.baseline} |`);
  }
  return lines.join('\n');
}

function renderSpread(leg: LegResult): string {
  return leg.scenarios
    .map(rowOf)
    .map((row) => `- ${row.scenario}: ${row.spread}`)
    .join('\n');
}

function versionOf(report: Report, kind: DatabaseKind): string {
  return report.legs.find((leg) => leg.kind === kind)?.version ?? 'not measured in this run';
}

function machineSection(report: Report): string {
  const { machine, libraries } = report;
  const library = (name: string): string => `${name} ${libraries[name] ?? '?'}`;
  return [
    '## Machine',
    '',
    `- CPU: ${machine.cpuModel}, ${machine.logicalCores} logical cores`,
    `- Memory: ${machine.memoryGiB} GiB`,
    `- OS: ${machine.kernel}`,
    `- Node: ${machine.node}`,
    `- SQLite: ${versionOf(report, 'sqlite')} (${library('better-sqlite3')})`,
    `- MariaDB: ${versionOf(report, 'mariadb')} (${library('mysql2')})`,
    `- ${library('@hapi/hapi')}, ${library('knex')}, ${library('autocannon')}`,
    `- Load average (1 min): ${report.load.before} before the run, ${report.load.after} after it`,
  ].join('\n');
}

function methodSection(options: BenchOptions, cores: number): string {
  const { connections, durationS, repetitions, warmupS } = options;
  const warmup = warmupS > 0 ? `one ${warmupS} s warm-up run for each (discarded), then ` : '';
  return `## Method

- **Service**: the real API, built as production builds it (\`loadConfig\` from the environment,
  \`buildContainer\`, \`createServer\`, \`server.start()\` on 127.0.0.1), with \`NODE_ENV=production\`,
  \`LOG_LEVEL=silent\`, \`PAYMENTS_RATE_LIMIT_TEST=0\` (the per-key limit would otherwise cap the
  load) and no Redis (in-process locks and rate limiter). Requests use the test API key of a
  merchant created through the \`CreateMerchant\` use case.
- **Baseline**: a bare Hapi server (no auth, idempotency, validation, mapping or presenters) on
  the same database with the same knex configuration (\`createKnex\`), issuing only the one
  statement a scenario cannot do without, on \`payment_intents\` and the same merchant's rows.
- **Scenarios** (every service request also authenticates: API key by prefix, then merchant):
  - *create intent*: \`POST /v1/payment_intents\` with a new \`Idempotency-Key\` and
    \`merchant_order_id\` per request. The service claims the key (insert), then in one
    transaction inserts the intent and its checkout session and records the answer. Baseline: one
    \`INSERT\` into \`payment_intents\` of the same columns.
  - *idempotent replay*: the same key and body every time, after one create. The service's claim
    insert meets the existing key; it reads the stored answer and replays it. Baseline: one
    \`SELECT\` of that intent by its unique \`merchant_order_id\`.
  - *get intent*: \`GET /v1/payment_intents/{id}\`, rotating over the seeded intents. Baseline: the
    same single-row \`SELECT\` by id, merchant and mode.
  - *list intents (limit 20)*: \`GET /v1/payment_intents?limit=20\` after ${options.seedCount} seeded
    intents (created through the service's API). Baseline: the same \`SELECT … ORDER BY seq DESC
    LIMIT 21\`.
- **Load**: autocannon ${connections} connections, pipelining 1, ${durationS} s per run. Per
  scenario: ${warmup}${repetitions} measured runs each, interleaved service, baseline, service,
  baseline …, with a ${SETTLE_MS} ms pause between runs. Each server runs in its own Node
  process forked by the bench; autocannon runs in the bench process; all traffic is on
  127.0.0.1. Load generator, both servers and MariaDB share the machine's ${cores} logical cores.
- **Figures**: the median over the ${repetitions} runs of autocannon's \`requests.average\` (the
  mean of its one-second request counts) and, separately, of its \`latency.p50\` and
  \`latency.p99\` (whole milliseconds: autocannon's histogram truncates, so 0 means under 1 ms).
  Ratio = service req/s ÷ baseline req/s.
- **Checks**: every run, warm-ups included, must end with no errors, timeouts or non-2xx answers;
  after each create run the table must have gained at least one row per 2xx answer. Otherwise the
  bench fails and leaves this file as it was.
- **Databases**: a fresh one per database: a temporary SQLite file (WAL, the single connection
  \`createKnex\` configures) and a new \`pt_<random>\` MariaDB database (pool of up to 10
  connections), dropped afterwards. Rows accumulate across scenarios (create runs first).`;
}

/** The whole of docs/benchmarks.md but the webhook section (run.ts keeps that one as it was). */
export function renderMarkdown(report: Report): string {
  const sections = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (test/bench/run.ts); every run rewrites this whole file except the "Webhook delivery" section between the bench:webhooks markers, which `npm run bench:webhooks` writes. -->',
    '',
    `Measured on ${report.date.toISOString().replace(/\.\d+Z$/, 'Z')} with:`,
    '',
    '```sh',
    `npm run bench -- ${describeOptions(report.options)}`,
    '```',
    '',
    machineSection(report),
    '',
    methodSection(report.options, report.machine.logicalCores),
  ];
  for (const leg of report.legs) {
    sections.push('', `## ${TITLES[leg.kind]}`, '', renderTable(leg), '', `Range of req/s over the ${report.options.repetitions} runs:`, '', renderSpread(leg));
  }
  return `${sections.join('\n')}\n`;
}

/** The tables for stdout. */
export function renderTables(legs: readonly LegResult[]): string {
  return legs.map((leg) => `${TITLES[leg.kind]}\n\n${renderTable(leg)}`).join('\n\n');
}
