import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnex } from '@payments/storage-sql';
import { freePort } from '../e2e/process';

/**
 * A database or Redis server of the test's own, on a free loopback port, that the fault tests may
 * stop and start again (same port, same data) without touching the shared servers other suites use.
 */
export interface PrivateServer {
  readonly name: string;
  readonly port: number;
  /** The URL the services are given: a server URL for MariaDB (databases are created on it), a Redis URL. */
  readonly url: string;
  /** Whether it runs now. */
  readonly running: boolean;
  /** SIGTERM (a clean shutdown) or SIGKILL (a crash); resolves once the process is gone. */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port and data; resolves once it answers. */
  start(): Promise<void>;
  /** SIGSTOP: a hung server. Its sockets stay open and accept, nothing answers, no timeout of its own fires. */
  pause(): void;
  /** SIGCONT after `pause`: it goes on where it stopped. */
  resume(): void;
  /** Its own log, for a failure's report. */
  log(): string;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

const MARIADBD_CANDIDATES = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld', '/usr/libexec/mariadbd'];
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Why private servers cannot be started here (binaries missing), or undefined when they can. */
export function privateServersSkipReason(): string | undefined {
  const missing: string[] = [];
  if (!MARIADBD_CANDIDATES.some((path) => existsSync(path))) missing.push('mariadbd');
  if (!onPath('mariadb-install-db')) missing.push('mariadb-install-db');
  if (!onPath('redis-server')) missing.push('redis-server');
  return missing.length === 0 ? undefined : `the outage tests start private servers and need ${missing.join(', ')} on this machine`;
}

interface Supervised {
  child: ChildProcess | undefined;
  output: string;
  exited: Promise<void> | undefined;
}

/** Spawns `command` and keeps its output; `exited` resolves when it is gone. */
function launch(state: Supervised, command: string, args: string[]): void {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  state.child = child;
  const keep = (chunk: Buffer): void => {
    // The tail is what matters in a failure's report.
    state.output = (state.output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  state.exited = new Promise((resolve) => child.once('exit', () => resolve()));
}

async function halt(state: Supervised, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const child = state.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await state.exited;
  clearTimeout(timer);
  state.child = undefined;
}

async function waitUntil(what: string, state: Supervised, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    const child = state.child;
    if (!child || child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) throw new Error(`${what} did not come up:\n${state.output}`);
    await sleep(100);
  }
}

/**
 * A private mariadbd: `mariadb-install-db` into a temp directory (owned by mysql when run as
 * root), root without a password on 127.0.0.1 only, a socket and pid file of its own. Small
 * buffers and no binary log: it exists for one test.
 */
export async function startPrivateMariaDb(): Promise<PrivateServer> {
  const mariadbd = MARIADBD_CANDIDATES.find((path) => existsSync(path));
  if (mariadbd === undefined) throw new Error(`No mariadbd at ${MARIADBD_CANDIDATES.join(', ')}.`);
  const dir = mkdtempSync(join(tmpdir(), 'payments-mariadb-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const user = asRoot ? ['--user=mysql'] : [];
  const datadir = join(dir, 'data');
  try {
    execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${datadir}`, ...user, '--auth-root-authentication-method=normal', '--skip-test-db'], {
      stdio: 'pipe',
      timeout: 60_000,
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr: unknown = typeof error === 'object' && error !== null && 'stderr' in error ? error.stderr : undefined;
    throw new Error(`mariadb-install-db failed: ${stderr instanceof Buffer ? stderr.toString() : String(error)}`);
  }
  const port = await freePort();
  const url = `mysql://root@127.0.0.1:${port}/mysql`;
  const args = [
    '--no-defaults',
    ...user,
    `--datadir=${datadir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${join(dir, 'mysqld.sock')}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    '--skip-name-resolve',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=64M',
    '--max-connections=300',
  ];
  const answers = async (): Promise<boolean> => {
    const knex = createKnex(url);
    try {
      await knex.raw('SELECT 1');
      return true;
    } finally {
      await knex.destroy();
    }
  };
  return supervise({ name: 'mariadb', command: mariadbd, args, port, url, dir, answers });
}

/** A private redis-server: no persistence at all, so a restart comes back empty, as a crashed cache node does. */
export async function startPrivateRedis(): Promise<PrivateServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'payments-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const answers = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      socket.setTimeout(1000, () => socket.destroy());
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(reply.startsWith('+PONG')));
      socket.on('data', (chunk: Buffer) => {
        reply += chunk.toString('utf8');
        if (reply.includes('\r\n')) socket.end();
      });
      socket.once('connect', () => socket.write('PING\r\n'));
    });
  return supervise({ name: 'redis', command: 'redis-server', args, port, url: `redis://127.0.0.1:${port}`, dir, answers });
}

/**
 * Starts `command` and hands it out as a PrivateServer: stoppable with either signal, started again
 * with the same arguments (so the same port and data), and removed with its directory on close.
 */
async function supervise(spec: {
  name: string;
  command: string;
  args: string[];
  port: number;
  url: string;
  dir: string;
  answers: () => Promise<boolean>;
}): Promise<PrivateServer> {
  const state: Supervised = { child: undefined, output: '', exited: undefined };
  const start = async (): Promise<void> => {
    launch(state, spec.command, spec.args);
    await waitUntil(spec.command, state, spec.answers);
  };
  const server: PrivateServer = {
    name: spec.name,
    port: spec.port,
    url: spec.url,
    get running() {
      return state.child !== undefined;
    },
    stop: (signal) => halt(state, signal),
    start,
    pause: () => state.child?.kill('SIGSTOP'),
    resume: () => state.child?.kill('SIGCONT'),
    log: () => state.output,
    close: async () => {
      state.child?.kill('SIGCONT');
      await halt(state, 'SIGKILL');
      rmSync(spec.dir, { recursive: true, force: true });
    },
  };
  try {
    await start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
