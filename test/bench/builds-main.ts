/**
 * Two builds of the service, or one in two environments: the CPU a request costs in each, side by side.
 *
 *   npm run bench:builds -- [--rounds 40] [--batch 300] <checkout A> <checkout B>
 *
 * Each checkout is a built copy of this repository (a `git worktree` of the commit to compare, its
 * `node_modules` in place, `npm run build`). Both services start in this process on a database of
 * their own (SQLite; MariaDB when PAYMENTS_TEST_DATABASE_URL is set), then take `server.inject`
 * requests in batches that alternate between them (A then B, B then A in the next round), so
 * that whatever else the machine does falls on both alike. The figure is this process's CPU
 * (`process.cpuUsage`, user + system) per request: a create with a fresh key, a get and a list of
 * 20, each side's median over the rounds. No sockets and no load generator: what differs between
 * the builds is all that differs. An A/A run (one checkout on both sides) shows the method's own
 * spread (about 1 % on SQLite, a few % on MariaDB); run it again with the checkouts swapped.
 *
 *   npm run bench:builds -- --apart [--env-a K=V …] [--env-b K=V …] <checkout A> <checkout B>
 *
 * `--apart` runs each side of each round in a fresh process of its own instead (start, warm-up,
 * one batch of each request, stop), for what cannot differ within one process: a setting read
 * from the environment, such as tracing, whose context manager is process-wide. `--env-a` and
 * `--env-b` set a variable in that side's processes; the text `{otlp-sink}` in a value becomes the
 * address of an OTLP/HTTP receiver this script runs (it answers 200 and counts what it gets), so
 * `--env-b OTEL_EXPORTER_OTLP_ENDPOINT={otlp-sink}` compares tracing off with tracing on.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { numberAt, textAt } from '../fixtures';
import { median } from './stats';

interface Injected {
  readonly statusCode: number;
  readonly payload: string;
}
interface InjectServer {
  initialize(): Promise<void>;
  stop(): Promise<void>;
  inject(options: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<Injected>;
}
/** What this script uses of a build: the same entry points the app's own tests use. */
interface Build {
  readonly buildContainer: (
    config: unknown,
    overrides: Record<string, unknown>,
  ) => Promise<{ get(id: unknown): { execute(input: unknown): Promise<{ testApiKey: { secret: string } }> }; close(): Promise<void> }>;
  readonly loadConfig: (env: Record<string, string>) => unknown;
  readonly createServer: (app: unknown) => Promise<InjectServer>;
  readonly CreateMerchant: unknown;
  readonly ScryptPasswordHasher: new (options: { N: number; r: number; p: number }) => unknown;
  readonly createTestDatabase: () => Promise<{ url: string; destroy(): Promise<void> }>;
}

const run = promisify(execFile);

const OPERATIONS = ['create', 'get', 'list'] as const;
type Operation = (typeof OPERATIONS)[number];
interface Side {
  readonly send: Record<Operation, () => Promise<Injected>>;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
}

interface Options {
  readonly rounds: number;
  readonly batch: number;
  readonly checkouts: readonly [string, string];
  readonly apart: boolean;
  /** Each side's environment, for --apart. */
  readonly env: readonly [Record<string, string>, Record<string, string>];
}

function parseArgs(argv: readonly string[]): Options {
  const numbers = { rounds: 40, batch: 300 };
  const env: [Record<string, string>, Record<string, string>] = [{}, {}];
  const checkouts: string[] = [];
  let apart = false;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--rounds' || flag === '--batch') {
      const value = Number(argv[(i += 1)]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} takes a whole number of 1 or more`);
      numbers[flag === '--rounds' ? 'rounds' : 'batch'] = value;
    } else if (flag === '--env-a' || flag === '--env-b') {
      const setting = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv[(i += 1)] ?? '');
      if (!setting) throw new Error(`${flag} takes NAME=value`);
      env[flag === '--env-a' ? 0 : 1][setting[1]] = setting[2];
    } else if (flag === '--apart') apart = true;
    else checkouts.push(resolve(flag));
  }
  if (checkouts.length !== 2)
    throw new Error('give two built checkouts: npm run bench:builds -- [--rounds N] [--batch N] [--apart [--env-a K=V] [--env-b K=V]] <A> <B>');
  if (!apart && Object.keys({ ...env[0], ...env[1] }).length > 0)
    throw new Error('--env-a and --env-b need --apart: both sides of one process share its environment');
  return { ...numbers, checkouts: [checkouts[0], checkouts[1]], apart, env };
}

/** The build's modules, resolved from its own apps/api so that each side loads its own packages. */
function loadBuild(checkout: string): Build {
  const load = createRequire(`${checkout}/apps/api/package.json`);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a build of this repository exports these entry points (see Build)
  const module = (id: string): Build => load(id) as Build;
  return {
    ...module('./dist/src/container.js'),
    ...module('./dist/src/config.js'),
    ...module('./dist/src/server.js'),
    CreateMerchant: module('@payments/core').CreateMerchant,
    ScryptPasswordHasher: module('@payments/node-runtime').ScryptPasswordHasher,
    createTestDatabase: module('@payments/storage-sql').createTestDatabase,
  };
}

async function startSide(checkout: string): Promise<Side> {
  const build = loadBuild(checkout);
  const database = await build.createTestDatabase();
  const config = build.loadConfig({
    PAYMENTS_HOST: '127.0.0.1',
    PAYMENTS_PORT: '0',
    PAYMENTS_DATABASE_URL: database.url,
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_BASE_URL: 'https://pay.example.test',
    PAYMENTS_RATE_LIMIT_TEST: '0',
    PAYMENTS_RATE_LIMIT_LIVE: '0',
    LOG_LEVEL: 'silent',
    // Tracing is configured from the environment (--apart's --env-b, say), as the service's own.
    ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('OTEL_') && entry[1] !== undefined)),
  });
  const app = await build.buildContainer(config, { passwordHasher: new build.ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }) });
  const server = await build.createServer(app);
  await server.initialize();
  const suffix = randomBytes(6).toString('hex');
  const { testApiKey } = await app
    .get(build.CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `owner-${suffix}@example.com`, password: 'correct horse battery' });
  const authorization = `Bearer ${testApiKey.secret}`;
  let sent = 0;
  const create = (): Promise<Injected> => {
    sent += 1;
    return server.inject({
      method: 'POST',
      url: '/v1/payment_intents',
      headers: { authorization, 'content-type': 'application/json', 'idempotency-key': `builds-${suffix}-${sent}` },
      payload: JSON.stringify({ amount: 12345, currency: 'THB', merchant_order_id: `order-${sent}` }),
    });
  };
  const first = await create();
  if (first.statusCode !== 201) throw new Error(`${checkout}: a create answered ${first.statusCode} ${first.payload}`);
  const id = textAt(JSON.parse(first.payload), 'id');
  const send: Side['send'] = {
    create,
    get: () => server.inject({ method: 'GET', url: `/v1/payment_intents/${id}`, headers: { authorization } }),
    list: () => server.inject({ method: 'GET', url: '/v1/payment_intents?limit=20', headers: { authorization } }),
  };
  const close = async (): Promise<void> => {
    await server.stop();
    await app.close();
    await database.destroy();
  };
  for (const operation of ['get', 'list'] as const) {
    const answer = await send[operation]();
    if (answer.statusCode !== 200) throw new Error(`${checkout}: a ${operation} answered ${answer.statusCode} ${answer.payload}`);
  }
  return { send, close };
}

/** CPU µs per request over one batch (after a short warm-up of the same operation). */
async function cpuPerRequest(send: () => Promise<Injected>, batch: number): Promise<number> {
  for (let i = 0; i < 20; i += 1) await send();
  const start = process.cpuUsage();
  for (let i = 0; i < batch; i += 1) await send();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / batch;
}

type Figures = Record<Operation, number[]>;

/** The sides in a round's order: A first in even rounds, B first in odd ones. */
const sidesInOrder = (round: number): readonly number[] => (round % 2 === 0 ? [0, 1] : [1, 0]);

const emptyFigures = (): Figures => ({ create: [], get: [], list: [] });

/** Both sides in this process, batches alternated. */
async function inProcess(options: Options): Promise<[Figures, Figures]> {
  const sides: Side[] = [];
  const figures: [Figures, Figures] = [emptyFigures(), emptyFigures()];
  try {
    for (const checkout of options.checkouts) sides.push(await startSide(checkout));
    for (const operation of OPERATIONS) {
      for (let round = 0; round < options.rounds; round += 1) {
        for (const index of sidesInOrder(round)) figures[index][operation].push(await cpuPerRequest(sides[index].send[operation], options.batch));
      }
    }
    return figures;
  } finally {
    // The databases are dropped even when a side failed to start or a request failed.
    for (const side of sides) await side.close();
  }
}

/** An OTLP/HTTP receiver for `{otlp-sink}`: answers every export 200 and counts them. */
async function startOtlpSink(): Promise<{ server: Server; url: string; exports: () => number }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo; // eslint-disable-line @typescript-eslint/no-unsafe-type-assertion -- a TCP listener's address
  return { server, url: `http://127.0.0.1:${port}`, exports: () => exports };
}

/** Each side of each round in a fresh process with its own environment (see --apart). */
async function apart(options: Options): Promise<[Figures, Figures]> {
  const usesSink = options.env.some((env) => Object.values(env).some((value) => value.includes('{otlp-sink}')));
  const sink = usesSink ? await startOtlpSink() : undefined;
  const envOf = (index: number): Record<string, string> =>
    Object.fromEntries(Object.entries(options.env[index]).map(([name, value]) => [name, sink ? value.replaceAll('{otlp-sink}', sink.url) : value]));
  const figures: [Figures, Figures] = [emptyFigures(), emptyFigures()];
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      for (const index of sidesInOrder(round)) {
        const one = await runChild(options.checkouts[index], options.batch, envOf(index));
        for (const operation of OPERATIONS) figures[index][operation].push(one[operation]);
      }
    }
    if (sink) console.log(`The OTLP receiver took ${sink.exports()} exports.\n`);
    return figures;
  } finally {
    sink?.server.close();
  }
}

async function runChild(checkout: string, batch: number, env: Record<string, string>): Promise<Record<Operation, number>> {
  const { stdout } = await run(process.execPath, [...process.execArgv, __filename, '--child', checkout, String(batch)], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 20,
  });
  const parsed: unknown = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  return { create: numberAt(parsed, 'create'), get: numberAt(parsed, 'get'), list: numberAt(parsed, 'list') };
}

/** One side of one --apart round: in this fresh process, a batch of each request to warm up, then the batch measured. */
async function child(checkout: string, batch: number): Promise<void> {
  const side = await startSide(checkout);
  try {
    const result: Partial<Record<Operation, number>> = {};
    for (const operation of OPERATIONS) {
      for (let i = 0; i < batch; i += 1) await side.send[operation]();
      result[operation] = await cpuPerRequest(side.send[operation], batch);
    }
    console.log(JSON.stringify(result));
  } finally {
    await side.close();
  }
}

function report(options: Options, figures: [Figures, Figures]): void {
  const sideLabel = (index: number): string => {
    const env = Object.entries(options.env[index]).map(([name, value]) => `${name}=${value}`);
    return `${options.checkouts[index]}${env.length > 0 ? ` (${env.join(' ')})` : ''}`;
  };
  const how = options.apart ? 'each side of each round in a fresh process' : 'both sides in one process';
  const database = process.env.PAYMENTS_TEST_DATABASE_URL ? 'MariaDB' : 'SQLite';
  console.log(
    `A ${sideLabel(0)}\nB ${sideLabel(1)}\n${options.rounds} rounds × ${options.batch} requests per side, ${how}, ${database}, Node ${process.version}\n`,
  );
  console.log('| request | A µs CPU | B µs CPU | B / A | A range | B range |\n| --- | ---: | ---: | ---: | ---: | ---: |');
  const range = (values: number[]): string => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  for (const operation of OPERATIONS) {
    const [a, b] = figures.map((side) => median(side[operation]));
    console.log(
      `| ${operation} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(3)} | ${range(figures[0][operation])} | ${range(figures[1][operation])} |`,
    );
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1] ?? '', Number(argv[2]));
  const options = parseArgs(argv);
  report(options, options.apart ? await apart(options) : await inProcess(options));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
