import { clockTicks } from './cpu';
import { FLOOR_STATEMENTS } from './floor-mariadb';
import { REPLAY_PATH } from './floor-server';
import { HALF_LOAD_SHARE, SETTLE_MS, type LegResult, type ScenarioResult, type SideResult } from './leg';
import type { MachineInfo } from './machine';
import { describeOptions, type BenchOptions, type DatabaseKind } from './options';
import { LADDER } from './scenarios';
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

/** By scenario id: service req/s ÷ its first floor's req/s at least this. */
export const THROUGHPUT_GOALS: Readonly<Record<string, number>> = { create: 0.8, replay: 0.8, get: 0.8, list: 0.8, 'no-io': 0.8 };
/** At half the floor's maximum rate, the service's p99 at most this many times the floor's. */
export const HALF_LOAD_P99_GOAL = 1.5;

const rps = (value: number): string => Math.round(value).toLocaleString('en-US');
const ms = (value: number): string => String(Math.round(value * 10) / 10);
const us = (value: number): string => Math.round(value).toLocaleString('en-US');
const verdict = (pass: boolean): string => (pass ? 'pass' : '**miss**');

const medianRps = (side: SideResult): number => median(side.samples.map((s) => s.requestsPerSecond));
const medianCpu = (side: SideResult): number => median(side.samples.map((s) => s.cpuUsPerRequest));
/** CPU µs per request of a side's server process; a dash where it could not be read (no /proc). */
const cpu = (side: SideResult): string => (Number.isFinite(medianCpu(side)) ? us(medianCpu(side)) : '—');
const isLadder = (side: SideResult): boolean => LADDER.some((rung) => rung.target === side.target);
/** The floors of the main table and the goals: the ladder's sides have tables of their own. */
const mainFloors = (result: ScenarioResult): SideResult[] => result.floors.filter((floor) => !isLadder(floor));
const ratio = (result: ScenarioResult, floor: SideResult): number => medianRps(result.service) / medianRps(floor);

/** Statements (BEGIN and COMMIT included) and durable commits of one request. */
interface PerRequest {
  readonly statements: number;
  readonly commits: number;
}

const COMMIT = /^\s*commit\b/i;

/** The service's (captured) and the first floor's statements per request of a scenario; none for no I/O. */
function statementsOf(leg: LegResult, id: string): { service?: PerRequest; floor?: PerRequest } {
  const captured = leg.statementLog[id];
  // Every write of the floor is inside its one transaction: its COMMITs are its durable commits.
  const floor = FLOOR_STATEMENTS[id];
  return {
    ...(captured ? { service: { statements: captured.sql.length, commits: captured.commits } } : {}),
    ...(floor ? { floor: { statements: floor.length, commits: floor.filter((sql) => COMMIT.test(sql)).length } } : {}),
  };
}

function latencies(side: SideResult): string {
  return `${ms(median(side.samples.map((s) => s.p50Ms)))} / ${ms(median(side.samples.map((s) => s.p99Ms)))}`;
}

function range(side: SideResult): string {
  const values = side.samples.map((s) => s.requestsPerSecond);
  return `${rps(Math.min(...values))}–${rps(Math.max(...values))}`;
}

/** The figures each goal is judged on, for one database. */
export interface GoalLine {
  readonly goal: string;
  readonly measured: string;
  readonly floor: string;
  readonly target: string;
  readonly pass: boolean;
}

export function goalLines(leg: LegResult): GoalLine[] {
  const byId = new Map(leg.scenarios.map((result) => [result.id, result]));
  const lines: GoalLine[] = [];
  const throughput = (id: string, goal: string): void => {
    const result = byId.get(id);
    const target = THROUGHPUT_GOALS[id];
    const floor = result?.floors[0];
    if (!result || !floor || target === undefined) return;
    const times = ratio(result, floor);
    const others = mainFloors(result)
      .slice(1)
      .map((other) => `; vs ${other.label} ${rps(medianRps(other))} req/s: ${ratio(result, other).toFixed(2)}×`);
    lines.push({
      goal,
      measured: `${rps(medianRps(result.service))} req/s = **${times.toFixed(2)}×**${others.join('')}`,
      floor: `${rps(medianRps(floor))} req/s`,
      target: `≥ ${target.toFixed(1)}×`,
      pass: times >= target,
    });
  };
  throughput('create', 'create intent req/s vs the floor');
  const create = byId.get('create');
  if (create?.halfLoad) {
    const service = median(create.halfLoad.service.map((s) => s.p99Us));
    const floor = median(create.halfLoad.floor.map((s) => s.p99Us));
    lines.push({
      goal: `create intent p99 at ${Math.round(HALF_LOAD_SHARE * 100)} % of the floor's max (${rps(create.halfLoad.rate)} req/s)`,
      measured: `${us(service)} µs = **${(service / floor).toFixed(2)}×**`,
      floor: `${us(floor)} µs`,
      target: `≤ ${HALF_LOAD_P99_GOAL.toFixed(1)}×`,
      pass: service <= HALF_LOAD_P99_GOAL * floor,
    });
  }
  throughput('get', 'get intent req/s vs the floor');
  throughput('list', 'list intents (limit 20) req/s vs the list floor');
  throughput('replay', 'idempotent replay req/s vs the replay floor');
  const replay = byId.get('replay');
  if (replay) {
    lines.push({
      goal: 'idempotent replay: database writes during its runs',
      measured: `**${replay.service.writes}** INSERT/UPDATE/DELETE`,
      floor: `${replay.floors[0]?.writes ?? 0}`,
      target: '0',
      pass: replay.service.writes === 0,
    });
  }
  throughput('no-io', 'no I/O: Hapi stack with auth + validation vs bare Hapi (node:http beside it)');
  return lines;
}

function goalsTable(leg: LegResult): string {
  const lines = ['| goal | service | floor | target | result |', '| --- | ---: | ---: | :---: | :---: |'];
  for (const line of goalLines(leg)) lines.push(`| ${line.goal} | ${line.measured} | ${line.floor} | ${line.target} | ${verdict(line.pass)} |`);
  const create = statementsOf(leg, 'create');
  if (create.service && create.floor) {
    lines.push(
      '',
      `Durable commits per create: service **${create.service.commits}**, floor ${create.floor.commits}; ` +
        `statements per create: service ${create.service.statements}, floor ${create.floor.statements} (BEGIN and COMMIT included; see the lists below).`,
    );
  }
  return lines.join('\n');
}

/** One database's table, as Markdown (also what is printed to stdout). */
export function renderTable(leg: LegResult): string {
  const lines = [
    '| scenario | service req/s | floor | floor req/s | ratio | goal | service p50/p99 ms | floor p50/p99 ms | CPU µs per request (service / floor) | statements per request (service / floor) | commits per request (service / floor) | writes during the runs (service / floor) |',
    '| --- | ---: | --- | ---: | ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const result of leg.scenarios) {
    const counted = statementsOf(leg, result.id);
    const pair = (key: keyof PerRequest): string => `${counted.service?.[key] ?? 0} / ${counted.floor?.[key] ?? 0}`;
    mainFloors(result).forEach((floor, index) => {
      const target = index === 0 ? THROUGHPUT_GOALS[result.id] : undefined;
      const times = ratio(result, floor);
      const goal = target === undefined ? '—' : `≥ ${target.toFixed(1)} ${verdict(times >= target)}`;
      const { service } = result;
      lines.push(
        `| ${index === 0 ? result.name : '〃'} | ${rps(medianRps(service))} | ${floor.label} | ${rps(medianRps(floor))} | ${times.toFixed(2)} | ${goal} | ${latencies(service)} | ${latencies(floor)} | ${cpu(service)} / ${cpu(floor)} | ` +
          `${pair('statements')} | ${pair('commits')} | ${service.writes} / ${floor.writes} |`,
      );
    });
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
      `${result.name} at a fixed ${rps(half.rate)} req/s (${Math.round(HALF_LOAD_SHARE * 100)} % of the floor's median req/s), median of ${half.service.length} runs, µs:`,
      '',
      '| side | p50 µs | p99 µs | achieved req/s | p99 range | timeouts (10 s) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const [side, samples] of [
      ['service', half.service],
      ['floor', half.floor],
    ] as const) {
      const p99s = samples.map((s) => s.p99Us);
      const timeouts = samples.reduce((sum, s) => sum + s.timeouts, 0);
      out.push(
        `| ${side} | ${p(samples, 'p50Us')} | ${p(samples, 'p99Us')} | ${rps(median(samples.map((s) => s.achievedRate)))} | ${us(Math.min(...p99s))}–${us(Math.max(...p99s))} | ${timeouts} |`,
      );
    }
    out.push('');
  }
  return out;
}

/** The scenarios the ladder runs in, in the order of its tables. */
const LADDER_SCENARIOS = ['create', 'get', 'list'] as const;

/** What each step of the ladder adds to the one below it, by the step's label. */
const LADDER_STEPS: ReadonlyArray<{ readonly label: string; readonly adds: string }> = [
  {
    label: 'hapi + driver',
    adds:
      "Hapi's request lifecycle over the floor's own code and store: routing, the request and response objects, " +
      "the payload read (raw), the lifecycle's extension points and the response toolkit, with no plugin.",
  },
  {
    label: 'hapi + knex',
    adds:
      "the service's data path in place of the floor's driver calls: knex's query builder and compiler for each statement, the service's " +
      "`SqlRunner` running it as a prepared statement (mysql2 `execute`, better-sqlite3 `prepare`) on a connection from knex's pool (tarn: an acquire " +
      "and a release around each statement), create's transaction as the service's unit of work runs it (BEGIN and COMMIT on one pooled connection), the service's own `createKnex` set-up.",
  },
  {
    label: 'hapi + knex + unit of work',
    adds:
      "the service's `KnexContext`: create's transaction is its `inTransaction`, which hands the transaction to the work, and the " +
      "work binds the context to it (`transaction.bind`), as the service's unit of work and repositories do; reads go through the " +
      'unbound context to the pool. No AsyncLocalStorage: promise hooks stay off.',
  },
  {
    label: 'service',
    adds:
      "the service's own layers: API-key auth and the merchant behind the key, joi validation, idempotency (the claim, the stored " +
      "answer), the use case, the repositories' mapping between rows and domain objects, the presenters, the plugins (error mapping, " +
      'request log, metrics, security headers); and its own statements (see the lists) on its own schema, with Redis on MariaDB.',
  },
];

/** The ladder's rows of one scenario, floor first and service last; undefined when it did not run there. */
function ladderRows(result: ScenarioResult): SideResult[] | undefined {
  const floor = result.floors[0];
  const rungs = LADDER.map((rung) => result.floors.find((side) => side.target === rung.target)).filter((side) => side !== undefined);
  if (!floor || rungs.length < LADDER.length) return undefined;
  return [floor, ...rungs, result.service];
}

/** CPU µs per request each row adds to the row above it (none for the first). */
function cpuSteps(rows: readonly SideResult[]): Array<number | undefined> {
  return rows.map((row, index) => (index === 0 ? undefined : medianCpu(row) - medianCpu(rows[index - 1])));
}

const signed = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? '—' : `${value >= 0 ? '+' : '−'}${us(Math.abs(value))}`;

/**
 * The ladder from the floor to the service: per scenario a table of each step's req/s, ratio to
 * the floor and CPU per request of its server process; then one line per step naming what it
 * adds, with the CPU µs per request it added in each scenario.
 */
function renderLadder(leg: LegResult): string[] {
  const tables: Array<{ readonly id: string; readonly name: string; readonly rows: SideResult[] }> = [];
  for (const id of LADDER_SCENARIOS) {
    const result = leg.scenarios.find((scenario) => scenario.id === id);
    const rows = result ? ladderRows(result) : undefined;
    if (result && rows) tables.push({ id, name: result.name, rows });
  }
  if (tables.length === 0) return [];
  const out: string[] = [];
  for (const table of tables) {
    const floor = table.rows[0];
    const steps = cpuSteps(table.rows);
    out.push(
      `*${table.name}*:`,
      '',
      '| step | req/s | × floor | CPU µs per request | CPU µs added by the step | p50/p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...table.rows.map(
        (row, index) =>
          `| ${index === 0 ? `${row.label} (node:http + driver)` : row.label} | ${rps(medianRps(row))} | ` +
          `${(medianRps(row) / medianRps(floor)).toFixed(2)} | ${cpu(row)} | ${signed(steps[index])} | ${latencies(row)} |`,
      ),
      '',
    );
  }
  // Rows are floor, then LADDER_STEPS in order: step i is row i + 1.
  const added = (step: number): string => tables.map((table) => `${table.id} ${signed(cpuSteps(table.rows)[step + 1])}`).join(', ');
  out.push(
    'What each step adds (CPU µs per request it added, median of the runs):',
    '',
    "- **floor**: `node:http` and the database driver directly (mysql2 prepared statements, or better-sqlite3), the route's least work (see Method).",
    ...LADDER_STEPS.map((step, index) => `- **${step.label}** (${added(index)}): ${step.adds}`),
    '',
  );
  return out;
}

function renderSpread(leg: LegResult): string {
  return leg.scenarios
    .map((result) => `- ${result.name}: service ${range(result.service)}${result.floors.map((floor) => `, ${floor.label} ${range(floor)}`).join('')}`)
    .join('\n');
}

function sqlList(id: string, title: string, statements: readonly string[]): string {
  return [`- *${id}*, ${title} (${statements.length}):`, '', '  ```sql', ...statements.map((sql) => `  ${sql}`), '  ```', ''].join('\n');
}

function renderStatements(leg: LegResult): string {
  return Object.entries(leg.statementLog)
    .map(([id, captured]) => [sqlList(id, 'service', captured.sql), ...(FLOOR_STATEMENTS[id] ? [sqlList(id, 'floor', FLOOR_STATEMENTS[id])] : [])].join('\n'))
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

/** How each leg's processes reported their promise hooks, e.g. "yes" or "yes (SQLite), no (MariaDB)". */
function hooks(report: Report, process: 'service' | 'floor' | 'ladder'): string {
  const answers = report.legs.map((leg) => ({ kind: leg.kind, on: leg.promiseHooks[process] }));
  const said = (on: boolean | undefined): string => (on === undefined ? 'not run' : on ? 'yes' : 'no');
  if (answers.every((answer) => answer.on === answers[0]?.on)) return said(answers[0]?.on);
  return answers.map((answer) => `${said(answer.on)} (${TITLES[answer.kind]})`).join(', ');
}

/** The length of a clock tick of /proc's CPU times, in ms (10 at 100 ticks per second). */
const tickMs = (): string => String(1000 / clockTicks());

function methodSection(report: Report): string {
  const { options } = report;
  const cores = report.machine.logicalCores;
  const { connections, durationS, repetitions, warmupS } = options;
  const warmup = warmupS > 0 ? `one ${warmupS} s warm-up run for each (discarded), then ` : '';
  const mariadb = report.legs.find((leg) => leg.kind === 'mariadb');
  const redis = mariadb === undefined ? 'with Redis unless run with `--redis-url none`' : mariadb.redis ? 'with Redis' : 'without Redis (`--redis-url none`)';
  return `## Method

- **Service**: the real API, built as production builds it (\`loadConfig\` from the environment,
  \`buildContainer\`, \`createServer\`, \`server.start()\` on 127.0.0.1), with \`NODE_ENV=production\`,
  \`LOG_LEVEL=silent\` (no request log line, so no per-request logger either) and
  \`PAYMENTS_RATE_LIMIT_TEST=0\` (the per-key limit would otherwise cap the load). On the MariaDB
  leg it runs ${redis} (\`PAYMENTS_REDIS_URL\`, a key prefix of the run's own): locks, rate limiter
  and failure counters in Redis, production's shape. On the SQLite leg it runs without Redis
  (in-process locks and rate limiter), the embedded default. Requests use the test API key of a
  merchant created through the \`CreateMerchant\` use case. The bench counts every statement the
  service's knex runs (its \`query\` events, in the service process; read over a control port of
  the bench's own, never the API's) and captures the statements of one request per scenario for
  the lists below each database's table.
- **The floor**: the least a correct implementation of each route must do, as a bare
  \`node:http\` server in a process of its own, on a schema of its own in a fresh database of its
  own (MariaDB: a new \`pf_<random>\` database through \`mysql2/promise\` directly, a pool of 10
  connections, every statement a prepared one (\`execute\`), sessions READ COMMITTED in UTC as the
  service's; SQLite: a temporary file through \`better-sqlite3\` directly, one connection with the
  pragmas the service's \`createKnex\` sets (WAL, \`busy_timeout\`, \`foreign_keys\`) and SQLite's
  default \`synchronous\`, so a commit is as durable as the service's). Tables:
  \`api_keys(prefix PK, digest, merchant_id, mode)\`, \`idempotency(merchant_id, mode, ikey,
  fingerprint, status NULL, body NULL, created; PK(merchant_id, mode, ikey))\`,
  \`payment_intents(seq auto-increment PK, id UNIQUE, merchant_id, mode, amount, currency,
  merchant_order_id, status, metadata JSON, created, expires_at; UNIQUE(merchant_id, mode,
  merchant_order_id), KEY(merchant_id, mode, seq))\`, \`checkout_sessions(token_hash PK, intent_id,
  expires_at)\`, and one \`sk_test_…\` key. Per request, exactly:
  - every route but the FX quote: \`SELECT digest, merchant_id, mode FROM api_keys WHERE prefix = ?\`
    with the key's first 16 characters, SHA-256 of the whole key compared with \`timingSafeEqual\`
    (401 otherwise);
  - *create* (\`POST /v1/payment_intents\`): JSON parse; amount a whole number ≥ 1, currency
    \`^[A-Z]{3}$\`, \`merchant_order_id\` a string (400 otherwise); fingerprint = SHA-256 of
    \`POST /v1/payment_intents \` + the raw body; then the intent (\`pi_\` + a random id, status
    created, ISO times, metadata {}) and a 32-byte checkout token, and in **one** transaction:
    INSERT the idempotency row, INSERT the intent, INSERT the checkout session (the token's digest
    only), UPDATE the idempotency row with status 201 and the answer (stored as it is: the floor
    does not seal it); COMMIT; 201 with the intent JSON. Times are \`DATETIME(3)\` on MariaDB and
    ISO text on SQLite. No read before the transaction: a repeated key is read only after its
    INSERT is refused. (The service reads the key first, so that a repeat writes nothing; a fresh
    key costs it one primary-key miss the floor does not pay.)
  - *replay floor* (\`POST ${REPLAY_PATH}\`, the same request bytes): the same parse and checks,
    then one primary-key read of the idempotency row, answered with its stored status and body and
    \`Idempotent-Replayed: true\`; nothing written.
  - *get* (\`GET /v1/payment_intents/{id}\`): one read of the id, mode, amount, currency,
    merchant_order_id, status, metadata, created and expires_at columns \`WHERE id = ? AND
    merchant_id = ? AND mode = ?\`; 200 JSON, 404 when missing.
  - *list floor* (\`GET /v1/payment_intents?limit=20\`): the same columns \`WHERE merchant_id = ?
    AND mode = ? ORDER BY seq DESC LIMIT 21\`; \`{object: 'list', data: [20 intents], has_more}\`.
  - *no I/O* (\`GET /v1/fx/quotes\`): the query string parsed and checked, the same JSON answered,
    no auth, twice: on the \`node:http\` floor, and on a **bare Hapi** server (\`@hapi/hapi\`, no
    plugins, one route) on a port of its own in the floor's process.
  The floor is seeded through its own create route with as many intents as the service
  (${options.seedCount}), so get and list read tables of the same size; the statement lists below
  show both sides' SQL.
- **The ladder** (create, get and list; \`--no-ladder\` leaves it out, and such a run is not
  recorded here): three more servers between the floor and the service, each the one before plus
  one layer, all on the floor's database, schema, test key and statements (the same request bytes
  as the floor side; their creates add rows to the floor's tables):
  - *hapi + driver*: a bare \`@hapi/hapi\` server (no plugins, no auth scheme, no validation
    library) with three routes, \`POST /v1/payment_intents\` (payload \`parse: false\`, so the
    handler gets the raw body), \`GET /v1/payment_intents\` and \`GET /v1/payment_intents/{id}\`,
    whose handlers call the node:http floor's own functions (the key check, create, get, list)
    over the floor's own store (the same mysql2 pool or better-sqlite3 connection) and hand the
    answer to \`h.response()\`; in the floor's process, on a port of its own.
  - *hapi + knex*: the same Hapi server over a store that runs the same statements as the
    service's storage runs its own: built by knex's query builder on a knex instance made by the
    service's own \`createKnex(url)\` (\`@payments/storage-sql\`: pool of up to 10 on MariaDB
    with the service's session set-up, one connection on SQLite with its pragmas) for each read
    (\`select … where …\`, the list's with \`orderBy('seq', 'desc').limit(21)\`, the LIMIT
    inlined; no \`LIMIT 1\` on single-row reads, as the floor) and each insert and update, and run
    by the service's \`SqlRunner\` as prepared statements (mysql2 \`execute\`, better-sqlite3
    \`prepare\`) on a connection from knex's pool; around create's four writes BEGIN and COMMIT on
    one pooled connection, as the service's unit of work does. Also in the floor's process, on a
    port of its own; nothing there enters an AsyncLocalStorage, and the bench checks that promise
    hooks are off in it.
  - *hapi + knex + unit of work*: the same as hapi + knex in a process of its own whose store
    goes through the service's \`KnexContext\`: create's transaction is its \`inTransaction\` (the
    service's unit of work's own: BEGIN and COMMIT on one connection, the transaction handed to
    the work, which binds the context to it) and every read runs through the context. It has no
    AsyncLocalStorage, as the service has none since the transaction is handed; the bench checks
    that promise hooks stay off in it. On SQLite the floor's
    file then has three connections (better-sqlite3's, knex's in the floor process, knex's in
    this one; WAL and \`busy_timeout\` as the service's), only one of them under load at a time.
  - the *service* on top.
  Promise hooks on, as each process reported them (a promise reaction's \`executionAsyncId()\` is
  0 with them off): service ${hooks(report, 'service')}, floor process ${hooks(report, 'floor')}, hapi + knex + unit of work process ${hooks(report, 'ladder')}.
- **Scenarios** (the same request bytes on both sides but the API key, each side its own):
  - *create intent*: \`POST /v1/payment_intents\` with a new \`Idempotency-Key\` and
    \`merchant_order_id\` per request.
  - *idempotent replay*: the same key and body every time, after one create on each side; answered
    from the stored answer with \`Idempotent-Replayed: true\`.
  - *get intent*: \`GET /v1/payment_intents/{id}\`, each side rotating over its own seeded intents.
  - *list intents (limit 20)*: \`GET /v1/payment_intents?limit=20\`.
  - *Hapi stack, no I/O*: \`GET /v1/fx/quotes?from=THB&to=THB&amount=10000\` (API-key auth, joi
    query validation, the \`QuoteFx\` use case on the bundled rates, presenter) on a second server
    in the service process built by the same \`createServer\` (every plugin: error mapping, request
    log, metrics, security headers) from a container whose API-key and merchant lookups are
    memoised after their first answer, so no request reaches the database. Measured against the
    bare Hapi server (the goal) and the \`node:http\` handler (beside it).
- **Load**: autocannon ${connections} connections, pipelining 1, ${durationS} s per run. Per
  scenario: ${warmup}${repetitions} measured runs each, interleaved service, floor(s), service,
  floor(s) …, with a ${SETTLE_MS} ms pause between runs. The service (with its no-I/O server), the
  floor (with the bare Hapi server and the ladder's hapi + driver and hapi + knex) and the
  ladder's hapi + knex + unit of work server run in Node processes of their own forked by the bench; the
  load generator runs in the bench process; all traffic is on 127.0.0.1.
  Load generator, servers, database and Redis share the machine's ${cores} logical cores.
- **p99 at ${Math.round(HALF_LOAD_SHARE * 100)} % load** (create): after the throughput runs, the rate is ${Math.round(HALF_LOAD_SHARE * 100)} % of the
  floor's median req/s; ${repetitions} runs of ${durationS} s each side, interleaved, of an
  open-loop load at that fixed rate (request *i* sent at start + *i*/rate on keep-alive
  connections, whatever the answers do; autocannon's \`overallRate\` sends each connection's quota
  in a burst at the top of every second, which is not a steady load). Latency from send to the
  last byte, in µs (\`process.hrtime\`); the figure is the median of the runs' p99s. A request
  unanswered after 10 s counts at 10 s (the server could not keep the rate) and is reported.
- **Figures**: the median over the ${repetitions} runs of autocannon's \`requests.average\` (the
  mean of its one-second request counts) and, separately, of its \`latency.p50\` and
  \`latency.p99\` (whole milliseconds: autocannon's histogram truncates, so 0 means under 1 ms).
  Ratio = service req/s ÷ floor req/s. CPU µs per request: the server process's user + system
  CPU time (\`utime + stime\` of \`/proc/<pid>/stat\`, all its threads, in clock ticks of
  ${tickMs()} ms) read just before and after each measured run, ÷ the requests completed in it;
  the median over the runs. The process's other servers are idle meanwhile (one side runs at a
  time). It is the server process's CPU only: MariaDB's and Redis's own work is not in it (on
  SQLite the database's work is, in-process). Statements and commits per request: the service's as
  captured from one request of the scenario on the quiet service (the second of two, so caches are
  warm), the floor's as it runs them; BEGIN and COMMIT count as statements. A durable commit is a
  COMMIT or a write outside a transaction (it commits on its own). Writes: each side's
  INSERT/UPDATE/DELETE count over all its runs of the scenario, warm-up included.
- **Checks**: every run, warm-ups included, must end with no errors, timeouts or non-2xx answers;
  after each create run, each side's table must have gained at least one row per 2xx answer;
  neither side may run an INSERT, UPDATE or DELETE during the replay, get and list runs (the
  replay goal), and the no-I/O server no SQL at all after its first request; promise hooks must be
  off in the floor's process and in the ladder's unit-of-work one. Otherwise the bench fails and leaves
  this file as it was.
- **Databases**: fresh ones per leg, dropped afterwards: the service's a temporary SQLite file
  (the single connection \`createKnex\` configures) or a new migrated \`pt_<random>\` MariaDB
  database (pool of up to 10 connections); the floor's as above. Rows accumulate across scenarios
  (create runs first).`;
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
      `## Goals (${TITLES[headline.kind]}${headline.redis ? ' + Redis' : ''}, this run)`,
      '',
      'The service against the floor: the least a correct implementation of each route must do (see Method).',
      '',
      goalsTable(headline),
      '',
      'Webhook deliveries/s with 1 worker vs a plain signed-POST loop (goal ≥ 0.8× with 1 worker): measured in the same run, after the scenarios above, by the webhook bench; see "Webhook delivery" below.',
      '',
    );
  }
  sections.push(machineSection(report), '', methodSection(report));
  for (const leg of report.legs) {
    sections.push(
      '',
      `## ${TITLES[leg.kind]}${leg.redis ? ' + Redis' : ''}`,
      '',
      renderTable(leg),
      '',
      ...renderHalfLoad(leg),
      `Range of req/s over the ${report.options.repetitions} runs:`,
      '',
      renderSpread(leg),
    );
    const ladder = renderLadder(leg);
    if (ladder.length > 0) {
      sections.push(
        '',
        `### Ladder from the floor to the service (${TITLES[leg.kind]})`,
        '',
        "Each step is the one above plus one layer, on the floor's database, schema, key and statements, until the service; CPU is the server process's own (user + system, all threads), per request (see Method).",
        '',
        ...ladder,
      );
    }
    if (leg.kind !== headline?.kind) sections.push('', 'Goals on this database:', '', goalsTable(leg));
    sections.push(
      '',
      "Statements per request: the service's as captured from one request on the quiet service, the floor's as it runs them:",
      '',
      renderStatements(leg),
    );
  }
  return `${sections.join('\n')}\n`;
}

/** The tables for stdout. */
export function renderTables(legs: readonly LegResult[]): string {
  return legs
    .map((leg) => {
      const ladder = renderLadder(leg);
      const title = `${TITLES[leg.kind]}${leg.redis ? ' + Redis' : ''}`;
      return `${title}\n\n${renderTable(leg)}\n\n${renderHalfLoad(leg).join('\n')}\n${goalsTable(leg)}${ladder.length > 0 ? `\n\nLadder (${title}):\n\n${ladder.join('\n')}` : ''}`;
    })
    .join('\n\n');
}
