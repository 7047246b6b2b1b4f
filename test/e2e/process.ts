import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { freePort, listeningPort } from '@payments/node-runtime';
import { createTestDatabase } from '@payments/storage-sql';
import { textAt } from '../fixtures';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export interface RunningService extends SpawnedProcess {
  readonly baseUrl: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface ServiceEnvironment {
  readonly env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** Where a service process keeps its files, and the loopback port it listens and is called back on. */
export function serviceBaseEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    PAYMENTS_DATA_DIR: dataDir,
    PAYMENTS_PORT: String(port),
    PAYMENTS_CHANNEL_CALLBACK_URL: `http://127.0.0.1:${port}`,
    PAYMENTS_HOST: '127.0.0.1',
  };
}

/**
 * Environment for a real service process: its own data directory (the embedded SQLite default)
 * or, when PAYMENTS_TEST_DATABASE_URL is set, a fresh MariaDB database, plus Redis when
 * PAYMENTS_TEST_REDIS_URL is set. `servers` points it at other servers (the cluster's private ones).
 */
export async function serviceEnvironment(servers: { databaseServerUrl?: string; redisUrl?: string } = {}): Promise<ServiceEnvironment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-e2e-'));
  // The service must know its own address before it starts: channels call back to it.
  const port = await freePort();
  const databaseServerUrl = servers.databaseServerUrl ?? process.env.PAYMENTS_TEST_DATABASE_URL;
  const redisUrl = servers.redisUrl ?? process.env.PAYMENTS_TEST_REDIS_URL;
  const mysql = databaseServerUrl ? await createTestDatabase({ serverUrl: databaseServerUrl }) : undefined;
  await mysql?.knex.destroy();
  const env: NodeJS.ProcessEnv = {
    ...serviceBaseEnv(dataDir, port),
    PAYMENTS_TICK_MS: '200',
    ...(mysql ? { PAYMENTS_DATABASE_URL: mysql.url } : {}),
    ...(redisUrl ? { PAYMENTS_REDIS_URL: redisUrl, PAYMENTS_REDIS_PREFIX: `e2e:${Date.now()}:` } : {}),
  };
  return {
    env,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await mysql?.destroy();
    },
  };
}

export interface SpawnedProcess {
  /** Everything the process printed on stdout so far. */
  readonly output: () => string;
  /** True until the process exited (on its own or stopped). */
  readonly running: () => boolean;
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>;
  /** SIGKILL: no shutdown at all, as when a machine dies; resolves once it exited. */
  readonly kill: () => Promise<void>;
}

/** `node <script> …args` started from the repo root, with what it prints collected as it comes. */
export function spawnNode(
  env: NodeJS.ProcessEnv,
  script: string,
  args: string[],
): { readonly child: ChildProcessWithoutNullStreams; readonly stdout: () => string; readonly stderr: () => string } {
  const child = spawn(process.execPath, [script, ...args], { cwd: REPO_ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Runs `node <script> …args` from the repo root to its end (all its output read); asynchronous, so servers in this process keep answering. */
export function runNode(env: NodeJS.ProcessEnv, script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, stdout, stderr } = spawnNode(env, script, args);
  return new Promise((resolveRun) => child.once('close', (code) => resolveRun({ code, stdout: stdout(), stderr: stderr() })));
}

/** Starts `node <script> …args` from the repo root and waits until its stdout passes `isReady`. */
async function spawnUntilReady(env: NodeJS.ProcessEnv, script: string, args: string[], isReady: (stdout: string) => boolean): Promise<SpawnedProcess> {
  const { child, stdout, stderr } = spawnNode(env, script, args);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const deadline = Date.now() + 30_000;
  while (!isReady(stdout())) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start:\n${stdout()}\n${stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    output: stdout,
    running: () => child.exitCode === null && child.signalCode === null,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Starts `node <script> …args` from the repo root and waits until it logs `message` with the url it listens on. */
export async function spawnUntilListening(env: NodeJS.ProcessEnv, script: string, args: string[], message: string): Promise<SpawnedProcess & { url: string }> {
  const listening = (stdout: string): string | undefined => {
    const line = stdout.split('\n').find((l) => l.includes(`"${message}"`));
    return line ? textAt(JSON.parse(line), 'url') : undefined;
  };
  const spawned = await spawnUntilReady(env, script, args, (stdout) => listening(stdout) !== undefined);
  const url = listening(spawned.output());
  if (url === undefined) throw new Error(`${script} is ready but its log does not say where it listens.`);
  return { ...spawned, url };
}

/** Starts the API (by default `npm start`'s API + worker process) and waits until it listens. */
export async function startService(env: NodeJS.ProcessEnv, script = 'apps/worker/dist/src/main.js', args = ['--with-api']): Promise<RunningService> {
  const { url, ...spawned } = await spawnUntilListening(env, script, args, 'API listening');
  return { ...spawned, env, baseUrl: url.replace('0.0.0.0', '127.0.0.1') };
}

/** Starts a worker alone (`npm run start:worker`); it has no port and is up once it logs so. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<SpawnedProcess> {
  return spawnUntilReady(env, 'apps/worker/dist/src/main.js', [], (stdout) => stdout.includes('"worker started"'));
}

/** Runs the admin CLI against the same database; resolves with exit code and output. */
export function runAdmin(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runNode(env, 'apps/admin/dist/src/main.js', args);
}

/** A merchant the operator CLI made: its id, owner email and test key, and all that `merchant create` printed. */
export interface AdminMerchant {
  readonly id: string;
  readonly email: string;
  readonly testApiKey: string;
  readonly printed: unknown;
}

/**
 * Makes a merchant with the operator CLI (`merchant create`): `name`, a fresh owner email unless
 * one is given, the password (by default 'a long enough password') and any further `options`.
 * Throws with what the CLI wrote to stderr when it fails.
 */
export async function createMerchantWithAdmin(
  env: NodeJS.ProcessEnv,
  merchant: { readonly name: string; readonly email?: string; readonly password?: string },
  options: string[] = [],
): Promise<AdminMerchant> {
  const slug = merchant.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const email = merchant.email ?? `${slug}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const admin = await runAdmin(env, [
    'merchant',
    'create',
    '--name',
    merchant.name,
    '--email',
    email,
    '--password',
    merchant.password ?? 'a long enough password',
    ...options,
  ]);
  if (admin.code !== 0) throw new Error(`merchant create failed: ${admin.stderr}`);
  const printed: unknown = JSON.parse(admin.stdout);
  return { id: textAt(printed, 'merchant', 'id'), email, testApiKey: textAt(printed, 'test_api_key'), printed };
}

/** The test key of the demo merchant that `npm start` makes and prints on its first start. */
export function printedDemoKey(service: RunningService): string {
  const key = /test API key:\s+(sk_test_[0-9A-Za-z]+)/.exec(service.output())?.[1];
  if (!key) throw new Error(`no demo key printed:\n${service.output()}`);
  return key;
}

/** Calls the API as a merchant, JSON in and out; every POST carries a fresh Idempotency-Key. */
export function merchantApi(baseUrl: string, key: string): (method: string, path: string, body?: unknown) => Promise<unknown> {
  return async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(method === 'POST' ? { 'idempotency-key': `${path}-${Math.random()}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
}

/** The e2e and cluster tests take their ports from here too. */
export { freePort };

/**
 * Starts `server` on a port of 127.0.0.1 the system picks; `close` ends its open connections
 * rather than waiting for idle keep-alive ones, then stops it.
 */
export async function listenOnLoopback(server: Server): Promise<{ readonly port: number; readonly close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: listeningPort(server),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
