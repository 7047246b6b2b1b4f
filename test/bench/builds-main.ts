/**
 * Two builds of the service in one process: the CPU a request costs in each, measured side by side.
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
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
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

const OPERATIONS = ['create', 'get', 'list'] as const;
type Operation = (typeof OPERATIONS)[number];
interface Side {
  readonly send: Record<Operation, () => Promise<Injected>>;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
}

function parseArgs(argv: readonly string[]): { rounds: number; batch: number; checkouts: [string, string] } {
  const numbers = { rounds: 40, batch: 300 };
  const checkouts: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === '--rounds' || flag === '--batch') {
      const value = Number(argv[(i += 1)]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} takes a whole number of 1 or more`);
      numbers[flag === '--rounds' ? 'rounds' : 'batch'] = value;
    } else checkouts.push(resolve(flag));
  }
  if (checkouts.length !== 2) throw new Error('give two built checkouts: npm run bench:builds -- [--rounds N] [--batch N] <A> <B>');
  return { ...numbers, checkouts: [checkouts[0], checkouts[1]] };
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
  const id = createdId(JSON.parse(first.payload));
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

/** The created intent's id, checked. */
function createdId(parsed: unknown): string {
  const id: unknown = typeof parsed === 'object' && parsed !== null ? Object.entries(parsed).find(([name]) => name === 'id')?.[1] : undefined;
  if (typeof id !== 'string') throw new Error('a create answered without an id');
  return id;
}

/** CPU µs per request over one batch (after a short warm-up of the same operation). */
async function cpuPerRequest(send: () => Promise<Injected>, batch: number): Promise<number> {
  for (let i = 0; i < 20; i += 1) await send();
  const start = process.cpuUsage();
  for (let i = 0; i < batch; i += 1) await send();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / batch;
}

async function main(): Promise<void> {
  const { rounds, batch, checkouts } = parseArgs(process.argv.slice(2));
  const sides: Side[] = [];
  try {
    for (const checkout of checkouts) sides.push(await startSide(checkout));
    await compare(sides, rounds, batch, checkouts);
  } finally {
    // The databases are dropped even when a side failed to start or a request failed.
    for (const side of sides) await side.close();
  }
}

async function compare(sides: readonly Side[], rounds: number, batch: number, checkouts: readonly string[]): Promise<void> {
  console.log(
    `A ${checkouts[0]}\nB ${checkouts[1]}\n${rounds} rounds × ${batch} requests per side, ${process.env.PAYMENTS_TEST_DATABASE_URL ? 'MariaDB' : 'SQLite'}, Node ${process.version}\n`,
  );
  console.log('| request | A µs CPU | B µs CPU | B / A | A range | B range |\n| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const operation of OPERATIONS) {
    const figures: [number[], number[]] = [[], []];
    for (let round = 0; round < rounds; round += 1) {
      for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) figures[index].push(await cpuPerRequest(sides[index].send[operation], batch));
    }
    const [a, b] = figures.map(median);
    const range = (values: number[]): string => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
    console.log(`| ${operation} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(3)} | ${range(figures[0])} | ${range(figures[1])} |`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
