import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export type DatabaseKind = 'sqlite' | 'mariadb';

export interface BenchOptions {
  /** Seconds per measured run. */
  readonly durationS: number;
  /** Measured runs per scenario and target (service and each floor). */
  readonly repetitions: number;
  /** Seconds of an unmeasured run per scenario and target before the measured ones. */
  readonly warmupS: number;
  readonly connections: number;
  /** Intents created before the read scenarios, so the list has full pages. */
  readonly seedCount: number;
  readonly databases: readonly DatabaseKind[];
  /** A MariaDB / MySQL server the bench may create and drop a database on. */
  readonly mariadbUrl: string;
  /** The Redis the service uses on the MariaDB leg (production's shape); undefined: none (in-process locks). */
  readonly redisUrl?: string;
  /** Scenario ids to run (all when not given): create, replay, get, list, no-io. */
  readonly scenarios?: readonly string[];
  /** Run the servers under --cpu-prof and write their .cpuprofile files here (figures then not for the record). */
  readonly profileDir?: string;
  /** Leave out the webhook relay's bench, which a recorded run otherwise runs after the HTTP legs. */
  readonly skipWebhooks: boolean;
  /** Run the ladder's servers (hapi + driver, hapi + knex, hapi + knex + unit of work) in create, get and list. */
  readonly ladder: boolean;
}

interface Bound {
  readonly flag: string;
  readonly env: string;
  readonly fallback: number;
  readonly min: number;
  readonly max: number;
}

// Bounds keep one run from going on for an hour by a typo; defaults keep the load near 19 min
// (11 without the ladder).
const BOUNDS = {
  duration: { flag: 'duration', env: 'BENCH_DURATION', fallback: 5, min: 1, max: 60 },
  reps: { flag: 'reps', env: 'BENCH_REPS', fallback: 5, min: 1, max: 50 },
  warmup: { flag: 'warmup', env: 'BENCH_WARMUP', fallback: 1, min: 0, max: 30 },
  connections: { flag: 'connections', env: 'BENCH_CONNECTIONS', fallback: 32, min: 1, max: 256 },
  // At least one full page of 20 (plus the look-ahead row) for the list scenario.
  seed: { flag: 'seed', env: 'BENCH_SEED', fallback: 300, min: 21, max: 5000 },
} as const satisfies Record<string, Bound>;

export const USAGE = `Usage: npm run bench -- [options]   (each also settable by the env variable shown)
  --duration <s>      seconds per measured run              BENCH_DURATION    default 5
  --reps <n>          measured runs per scenario and target  BENCH_REPS        default 5
  --warmup <s>        unmeasured run before each series      BENCH_WARMUP      default 1 (0: none)
  --connections <n>   autocannon connections                 BENCH_CONNECTIONS default 32
  --seed <n>          intents created before the read runs   BENCH_SEED        default 300
  --databases <list>  sqlite,mariadb                         BENCH_DATABASES   default both
  --mariadb-url <u>   server to create the bench database on BENCH_MARIADB_URL default
                      $PAYMENTS_TEST_DATABASE_URL or mysql://root@127.0.0.1:3306/test
  --redis-url <u>     the Redis the service uses on the      BENCH_REDIS_URL   default
                      MariaDB leg; 'none' for without        redis://127.0.0.1:6379
                      (the SQLite leg never uses Redis)
  --scenarios <list>  create,replay,get,list,no-io (development; the report needs all)
  --skip-webhooks     do not run the webhook relay's bench after the HTTP scenarios (it
                      otherwise runs in the same run: npm run bench:webhooks, 2000 deliveries)
  --ladder            also the ladder from floor to service  BENCH_LADDER      default 1 (on)
                      in create, get and list: the floor's routes on bare Hapi over the
                      driver, over knex, over knex with the unit of work (3 more sides
                      each; the defaults then take about 19 min of load instead of 11)
  --no-ladder         leave it out (BENCH_LADDER=0): development only; the report needs the
                      ladder, so such a run prints its tables and does not write the doc
  --profile <dir>     run the servers under node --cpu-prof, write .cpuprofile files to <dir>
                      and print their top self-time functions (development; not for the record)`;

export class UsageError extends Error {}

function numberOption(bound: Bound, raw: string | undefined): number {
  const text = raw ?? process.env[bound.env];
  if (text === undefined || text === '') return bound.fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < bound.min || value > bound.max) {
    throw new UsageError(`--${bound.flag} / ${bound.env} must be a whole number from ${bound.min} to ${bound.max}, got '${text}'.`);
  }
  return value;
}

function databasesOption(raw: string | undefined): DatabaseKind[] {
  const text = raw ?? process.env['BENCH_DATABASES'] ?? 'sqlite,mariadb';
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const kinds: DatabaseKind[] = [];
  for (const kind of new Set(names)) {
    if (kind !== 'sqlite' && kind !== 'mariadb') throw new UsageError(`--databases takes sqlite and/or mariadb, got '${kind}'.`);
    kinds.push(kind);
  }
  if (kinds.length === 0) throw new UsageError('--databases names no database.');
  return kinds;
}

function redisOption(raw: string | undefined): { redisUrl?: string } {
  const text = (raw ?? process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379').trim();
  if (text === 'none' || text === '') return {};
  if (!/^rediss?:\/\//.test(text)) throw new UsageError(`--redis-url / BENCH_REDIS_URL takes a redis:// URL or 'none', got '${text}'.`);
  return { redisUrl: text };
}

const FLAGS = {
  duration: { type: 'string' },
  reps: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  seed: { type: 'string' },
  databases: { type: 'string' },
  'mariadb-url': { type: 'string' },
  'redis-url': { type: 'string' },
  scenarios: { type: 'string' },
  profile: { type: 'string' },
  'skip-webhooks': { type: 'boolean' },
  ladder: { type: 'boolean' },
  'no-ladder': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function ladderOption(on: boolean | undefined, off: boolean | undefined): boolean {
  if (on && off) throw new UsageError('--ladder and --no-ladder contradict each other.');
  if (on) return true;
  if (off) return false;
  const text = process.env['BENCH_LADDER'];
  if (text === undefined || text === '' || text === '1') return true;
  if (text === '0') return false;
  throw new UsageError(`BENCH_LADDER takes 0 or 1, got '${text}'.`);
}

/** Reads flags first, then BENCH_* variables, then defaults; returns undefined for --help. */
export function parseOptions(argv: readonly string[]): BenchOptions | undefined {
  const values = readFlags(argv);
  if (values.help) return undefined;
  return {
    durationS: numberOption(BOUNDS.duration, values.duration),
    repetitions: numberOption(BOUNDS.reps, values.reps),
    warmupS: numberOption(BOUNDS.warmup, values.warmup),
    connections: numberOption(BOUNDS.connections, values.connections),
    seedCount: numberOption(BOUNDS.seed, values.seed),
    databases: databasesOption(values.databases),
    mariadbUrl: values['mariadb-url'] ?? process.env['BENCH_MARIADB_URL'] ?? process.env['PAYMENTS_TEST_DATABASE_URL'] ?? 'mysql://root@127.0.0.1:3306/test',
    ...redisOption(values['redis-url']),
    ...(values.scenarios === undefined
      ? {}
      : {
          scenarios: values.scenarios
            .split(',')
            .map((id) => id.trim())
            .filter((id) => id !== ''),
        }),
    ...(values.profile === undefined ? {} : { profileDir: resolve(values.profile) }),
    skipWebhooks: values['skip-webhooks'] === true,
    ladder: ladderOption(values.ladder, values['no-ladder']),
  };
}

/** The flags that reproduce a run, for the report. */
export function describeOptions(options: BenchOptions): string {
  return [
    `--duration ${options.durationS}`,
    `--reps ${options.repetitions}`,
    `--warmup ${options.warmupS}`,
    `--connections ${options.connections}`,
    `--seed ${options.seedCount}`,
    `--databases ${options.databases.join(',')}`,
    ...(options.databases.includes('mariadb') && options.redisUrl === undefined ? ['--redis-url none'] : []),
    ...(options.scenarios ? [`--scenarios ${options.scenarios.join(',')}`] : []),
    ...(options.profileDir ? ['--profile <dir>'] : []),
    ...(options.ladder ? [] : ['--no-ladder']),
  ].join(' ');
}
