import { HALF_LOAD_SHARE, SETTLE_MS, type LegResult, type ScenarioResult } from './leg';
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

/** The goals, by scenario id: service ÷ baseline req/s at least this. */
export const THROUGHPUT_GOALS: Readonly<Record<string, number>> = { create: 0.8, get: 0.8, 'no-io': 0.6 };
/** At half the baseline's maximum rate, the service's p99 at most this many times the baseline's. */
export const HALF_LOAD_P99_GOAL = 1.5;
/** Replay req/s at least this many times create's. */
export const REPLAY_OVER_CREATE_GOAL = 2;

const rps = (value: number): string => Math.round(value).toLocaleString('en-US');
const ms = (value: number): string => String(Math.round(value * 10) / 10);
const us = (value: number): string => Math.round(value).toLocaleString('en-US');
const verdict = (pass: boolean): string => (pass ? 'pass' : '**miss**');

function latencies(samples: ScenarioResult['service']): string {
  return `${ms(median(samples.map((s) => s.p50Ms)))} / ${ms(median(samples.map((s) => s.p99Ms)))}`;
}

function range(samples: ScenarioResult['service']): string {
  const values = samples.map((s) => s.requestsPerSecond);
  return `${rps(Math.min(...values))}–${rps(Math.max(...values))}`;
}

const serviceRps = (result: ScenarioResult): number => median(result.service.map((s) => s.requestsPerSecond));
const baselineRps = (result: ScenarioResult): number => median(result.baseline.map((s) => s.requestsPerSecond));
const ratioOf = (result: ScenarioResult): number => serviceRps(result) / baselineRps(result);

/** The figures each goal is judged on, for one database. */
export interface GoalLine {
  readonly goal: string;
  readonly measured: string;
  readonly baseline: string;
  readonly target: string;
  readonly pass: boolean;
}

export function goalLines(leg: LegResult): GoalLine[] {
  const byId = new Map(leg.scenarios.map((result) => [result.id, result]));
  const lines: GoalLine[] = [];
  const throughput = (id: string, goal: string): void => {
    const result = byId.get(id);
    const target = THROUGHPUT_GOALS[id];
    if (!result || target === undefined) return;
    lines.push({
      goal,
      measured: `${rps(serviceRps(result))} req/s = **${ratioOf(result).toFixed(2)}×**`,
      baseline: `${rps(baselineRps(result))} req/s`,
      target: `≥ ${target.toFixed(1)}×`,
      pass: ratioOf(result) >= target,
    });
  };
  throughput('create', 'create intent req/s vs bare node:http + the same SQL');
  const create = byId.get('create');
  if (create?.halfLoad) {
    const service = median(create.halfLoad.service.map((s) => s.p99Us));
    const baseline = median(create.halfLoad.baseline.map((s) => s.p99Us));
    lines.push({
      goal: `create intent p99 at ${Math.round(HALF_LOAD_SHARE * 100)} % of the baseline's max (${rps(create.halfLoad.rate)} req/s)`,
      measured: `${us(service)} µs = **${(service / baseline).toFixed(2)}×**`,
      baseline: `${us(baseline)} µs`,
      target: `≤ ${HALF_LOAD_P99_GOAL.toFixed(1)}×`,
      pass: service <= HALF_LOAD_P99_GOAL * baseline,
    });
  }
  throughput('get', 'get intent req/s vs bare node:http + the same primary-key read');
  const replay = byId.get('replay');
  if (replay) {
    lines.push({
      goal: 'idempotent replay: database writes during its runs',
      measured: `**${replay.serviceWrites}** INSERT/UPDATE/DELETE`,
      baseline: '—',
      target: '0',
      pass: replay.serviceWrites === 0,
    });
    if (create) {
      const times = serviceRps(replay) / serviceRps(create);
      lines.push({
        goal: 'idempotent replay req/s vs create req/s (both the service)',
        measured: `${rps(serviceRps(replay))} req/s = **${times.toFixed(2)}×**`,
        baseline: `create ${rps(serviceRps(create))} req/s`,
        target: `≥ ${REPLAY_OVER_CREATE_GOAL.toFixed(1)}×`,
        pass: times >= REPLAY_OVER_CREATE_GOAL,
      });
    }
  }
  throughput('no-io', 'Hapi stack with auth + validation, no I/O, vs bare node:http');
  return lines;
}

function goalsTable(leg: LegResult): string {
  const lines = ['| goal | service | baseline | target | result |', '| --- | ---: | ---: | :---: | :---: |'];
  for (const line of goalLines(leg)) lines.push(`| ${line.goal} | ${line.measured} | ${line.baseline} | ${line.target} | ${verdict(line.pass)} |`);
  return lines.join('\n');
}

/** One database's table, as Markdown (also what is printed to stdout). */
export function renderTable(leg: LegResult): string {
  const lines = [
    '| scenario | service req/s | baseline req/s | ratio | goal | service p50/p99 ms | baseline p50/p99 ms | statements per request | service writes |',
    '| --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: |',
  ];
  for (const result of leg.scenarios) {
    const target = THROUGHPUT_GOALS[result.id];
    const goal = target === undefined ? '—' : `≥ ${target.toFixed(1)} ${verdict(ratioOf(result) >= target)}`;
    lines.push(
      `| ${result.name} | ${rps(serviceRps(result))} | ${rps(baselineRps(result))} | ${ratioOf(result).toFixed(2)} | ${goal} | ${latencies(result.service)} | ${latencies(result.baseline)} | ${result.statements} | ${result.serviceWrites} |`,
    );
  }
  return lines.join('\n');
}

function renderHalfLoad(leg: LegResult): string[] {
  const out: string[] = [];
  for (const result of leg.scenarios) {
    const half = result.halfLoad;
    if (!half) continue;
    const p = (samples: typeof half.service, key: 'p50Us' | 'p99Us'): string => us(median(samples.map((s) => s[key])));
    out.push(
      `${result.name} at a fixed ${rps(half.rate)} req/s (${Math.round(HALF_LOAD_SHARE * 100)} % of the baseline's median req/s), median of ${half.service.length} runs, µs:`,
      '',
      '| side | p50 µs | p99 µs | achieved req/s | p99 range | timeouts (10 s) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const [side, samples] of [
      ['service', half.service],
      ['baseline', half.baseline],
    ] as const) {
      const p99s = samples.map((s) => s.p99Us);
      const timeouts = samples.reduce((sum, s) => sum + s.timeouts, 0);
      out.push(`| ${side} | ${p(samples, 'p50Us')} | ${p(samples, 'p99Us')} | ${rps(median(samples.map((s) => s.achievedRate)))} | ${us(Math.min(...p99s))}–${us(Math.max(...p99s))} | ${timeouts} |`);
    }
    out.push('');
  }
  return out;
}

function renderSpread(leg: LegResult): string {
  return leg.scenarios.map((result) => `- ${result.name}: service ${range(result.service)}, baseline ${range(result.baseline)}`).join('\n');
}

function renderStatements(leg: LegResult): string {
  return Object.entries(leg.statementLog)
    .map(([id, statements]) => [`- *${id}* (${statements.length}):`, '', '  ```sql', ...statements.map((sql) => `  ${sql}`), '  ```', ''].join('\n'))
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
  \`LOG_LEVEL=silent\` (no request log line, so no per-request logger either),
  \`PAYMENTS_RATE_LIMIT_TEST=0\` (the per-key limit would otherwise cap the
  load) and no Redis (in-process locks and rate limiter). Requests use the test API key of a
  merchant created through the \`CreateMerchant\` use case. The bench counts every statement the
  service's knex runs (its \`query\` events, in the service process; read over a control port of
  the bench's own, never the API's).
- **Baseline**: a bare \`node:http\` server (no Hapi, no auth, no validation library, no
  presenters) with the same knex configuration (\`createKnex\`: same driver, pool and session
  settings) on the same database. Before the runs the bench sends two requests of each scenario to
  the quiet service and captures the statements its knex ran for each (\`query\` / \`query-error\`
  events: SQL, bindings, transaction, failure). The bindings that differ between the two are the
  request's volatile values; per request the baseline replays the second capture with
  \`knex.raw\`: the same SQL text in the same order, the service's transaction boundaries as one
  \`knex.transaction\` each, a statement that failed in the service (such as a duplicate-key
  claim) expected to fail again, its own request's idempotency key, order id or intent id in place of the
  captured ones, every other volatile string (ids, tokens, digests) fresh and of the same shape and
  epoch-ms timestamps shifted to now, and it answers the service's captured answer with the same
  substitutions. So both sides run the same SQL per request and the ratio measures our stack (Hapi,
  auth, validation, idempotency, use cases, repositories, presenters, logging, metrics), not the
  SQL. The statement lists are below each database's table.
- **Scenarios** (the same request bytes to both sides but the path):
  - *create intent*: \`POST /v1/payment_intents\` with a new \`Idempotency-Key\` and
    \`merchant_order_id\` per request.
  - *idempotent replay*: the same key and body every time, after one create; answered from the
    stored answer with \`Idempotent-Replayed: true\`.
  - *get intent*: \`GET /v1/payment_intents/{id}\`, rotating over the seeded intents.
  - *list intents (limit 20)*: \`GET /v1/payment_intents?limit=20\` after ${options.seedCount} seeded intents (no goal).
  - *Hapi stack, no I/O*: \`GET /v1/fx/quotes?from=THB&to=THB&amount=10000\` (API-key auth, joi
    query validation, the \`QuoteFx\` use case on the bundled rates, presenter) on a second server
    in the service process built by the same \`createServer\` (every plugin: error mapping, request
    log, metrics, security headers) from a container whose API-key and merchant lookups are
    memoised after their first answer, so no request reaches the database. Baseline: a
    \`node:http\` handler that parses and checks the query string and answers the same JSON.
- **Load**: autocannon ${connections} connections, pipelining 1, ${durationS} s per run. Per
  scenario: ${warmup}${repetitions} measured runs each, interleaved service, baseline, service,
  baseline …, with a ${SETTLE_MS} ms pause between runs. Each server runs in its own Node
  process forked by the bench; the load generator runs in the bench process; all traffic is on
  127.0.0.1. Load generator, both servers and the database share the machine's ${cores} logical cores.
- **p99 at ${Math.round(HALF_LOAD_SHARE * 100)} % load** (create): after the throughput runs, the rate is ${Math.round(HALF_LOAD_SHARE * 100)} % of the
  baseline's median req/s; ${repetitions} runs of ${durationS} s each side, interleaved, of an
  open-loop load at that fixed rate (request *i* sent at start + *i*/rate on keep-alive
  connections, whatever the answers do; autocannon's \`overallRate\` sends each connection's quota
  in a burst at the top of every second, which is not a steady load). Latency from send to the
  last byte, in µs (\`process.hrtime\`); the figure is the median of the runs' p99s. A request
  unanswered after 10 s counts at 10 s (the server could not keep the rate) and is reported.
- **Figures**: the median over the ${repetitions} runs of autocannon's \`requests.average\` (the
  mean of its one-second request counts) and, separately, of its \`latency.p50\` and
  \`latency.p99\` (whole milliseconds: autocannon's histogram truncates, so 0 means under 1 ms).
  Ratio = service req/s ÷ baseline req/s.
- **Checks**: every run, warm-ups included, must end with no errors, timeouts or non-2xx answers
  (the baseline answers 500 if a statement does not behave as it did in the service); after each
  create run the table must have gained at least one row per 2xx answer; the service must run no
  INSERT, UPDATE or DELETE during the replay, get, list runs (its statement counter; the
  replay goal), and the no-I/O server no SQL at all after its first request. Otherwise the bench
  fails and leaves this file as it was.
- **Databases**: a fresh one per database: a temporary SQLite file (WAL, the single connection
  \`createKnex\` configures) and a new \`pt_<random>\` MariaDB database (pool of up to 10
  connections), dropped afterwards. Rows accumulate across scenarios (create runs first).`;
}

/** The whole of docs/benchmarks.md but the kept sections (run.ts keeps those as they were). */
export function renderMarkdown(report: Report): string {
  const headline = report.legs.find((leg) => leg.kind === 'mariadb') ?? report.legs[0];
  const sections = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` (test/bench/run.ts); every run rewrites this whole file except the "Webhook delivery" section between the bench:webhooks markers, which the webhook bench writes (run by `npm run bench` after the HTTP scenarios, or alone as `npm run bench:webhooks`), and the "Profile" section between the bench:profile markers, written by hand. -->',
    '',
    `Measured on ${report.date.toISOString().replace(/\.\d+Z$/, 'Z')} with:`,
    '',
    '```sh',
    `npm run bench -- ${describeOptions(report.options)}`,
    '```',
    '',
  ];
  if (headline) {
    sections.push(
      `## Goals (${TITLES[headline.kind]}, this run)`,
      '',
      goalsTable(headline),
      '',
      'Webhook deliveries/s with 1 and 4 workers vs a plain signed-POST loop (goal ≥ 0.6×): measured in the same run, after the scenarios above, by the webhook bench; see "Webhook delivery" below.',
      '',
    );
  }
  sections.push(machineSection(report), '', methodSection(report.options, report.machine.logicalCores));
  for (const leg of report.legs) {
    sections.push('', `## ${TITLES[leg.kind]}`, '', renderTable(leg), '', ...renderHalfLoad(leg), `Range of req/s over the ${report.options.repetitions} runs:`, '', renderSpread(leg));
    if (leg.kind !== headline?.kind) sections.push('', 'Goals on this database:', '', goalsTable(leg));
    sections.push('', 'Statements per request, as captured from the service (the baseline replays them):', '', renderStatements(leg));
  }
  return `${sections.join('\n')}\n`;
}

/** The tables for stdout. */
export function renderTables(legs: readonly LegResult[]): string {
  return legs.map((leg) => `${TITLES[leg.kind]}\n\n${renderTable(leg)}\n\n${renderHalfLoad(leg).join('\n')}\n${goalsTable(leg)}`).join('\n\n');
}
