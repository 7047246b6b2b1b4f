import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnex } from '@payments/storage-sql';
import { freePort } from '../e2e/process';

const MARIADBD = '/usr/sbin/mariadbd';
const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function onPath(command: string): boolean {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

/** Why a private Galera cluster cannot be started here (binaries missing), or undefined when it can. */
export function galeraSkipReason(): string | undefined {
  const missing: string[] = [];
  if (!existsSync(MARIADBD)) missing.push(MARIADBD);
  if (!existsSync(GALERA_PROVIDER)) missing.push(`${GALERA_PROVIDER} (apt-get install galera-4)`);
  for (const command of ['mariadb-install-db', 'rsync', 'wsrep_sst_rsync']) if (!onPath(command)) missing.push(command);
  return missing.length === 0 ? undefined : `the Galera tests start a private 3-node MariaDB Galera cluster and need ${missing.join(', ')} on this machine`;
}

/** One mariadbd of the cluster. */
export interface GaleraNode {
  readonly index: number;
  /** The client port. */
  readonly port: number;
  /** A server URL (databases are created on it) that reaches this node only. */
  readonly url: string;
  /** Whether its process runs now. */
  readonly running: boolean;
  /** How the node last joined: 'IST', 'SST', 'bootstrap' or 'unknown' (from its log). */
  readonly lastJoin: string;
  /** Its log's tail, for a failure's report. */
  log(): string;
}

export interface GaleraCluster {
  readonly nodes: readonly GaleraNode[];
  /**
   * The balancers' health check, as HAProxy's clustercheck does it: whether node `index` answered,
   * at its last check (every 250 ms), that it is Synced. A node that is joining accepts
   * connections before it has caught up, and would answer reads from the past.
   */
  synced(index: number): boolean;
  /** SIGKILL one node: no shutdown at all, as when its machine dies. */
  kill(index: number): Promise<void>;
  /**
   * Starts a killed node again on its own data (its position recovered first, so it asks the
   * others for the missing write sets: IST; SST when they no longer have them), and resolves once
   * every node is Synced in a cluster of full size again.
   */
  restart(index: number): Promise<void>;
  /** Resolves once every running node says Synced and sees a cluster of every running node. */
  waitSynced(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface NodeState {
  readonly index: number;
  readonly dir: string;
  readonly datadir: string;
  readonly port: number;
  readonly galeraPort: number;
  readonly istPort: number;
  readonly sstPort: number;
  child: ChildProcess | undefined;
  exited: Promise<void> | undefined;
  output: string;
  /** What it logged since its last start (the tail). */
  sinceStart: string;
  lastJoin: string;
}

/** Whether something accepts connections on `port` (so a pool is not made to log refused ones). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function statusOf(port: number): Promise<Record<string, string>> {
  if (!(await listening(port))) return { error: 'not listening' };
  const knex = createKnex(`mysql://root@127.0.0.1:${port}/mysql`);
  try {
    const [rows] = await knex.raw<[Array<{ Variable_name: string; Value: string }>]>(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state_comment', 'wsrep_cluster_size', 'wsrep_ready', 'wsrep_cluster_status')",
    );
    return Object.fromEntries(rows.map((row) => [row.Variable_name, row.Value]));
  } finally {
    await knex.destroy();
  }
}

/**
 * A private 3-node MariaDB Galera cluster on free loopback ports: one `mariadb-install-db`
 * copied into every node's data directory (owned by mysql when run as root), node 0 bootstrapped
 * with `--wsrep-new-cluster`, the others joining through SST (rsync). The settings are the ones
 * docs/operations.md names for a multi-writer cluster (ROW binary log format, InnoDB,
 * interleaved auto-increment locks); durability is relaxed (the cluster holds the data three
 * times, and the tests run on a small shared machine).
 */
export async function startGaleraCluster(size = 3): Promise<GaleraCluster> {
  const root = mkdtempSync(join(tmpdir(), 'payments-galera-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).trim()),
      }
    : undefined;
  const user = asRoot ? ['--user=mysql'] : [];
  const chownTree = (path: string): void => {
    if (owner) execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, path]);
  };
  if (owner) chownSync(root, owner.uid, owner.gid);
  const clusterName = `payments-test-${randomBytes(4).toString('hex')}`;
  const nodes: NodeState[] = [];
  let closed = false;
  const synced: boolean[] = [];
  let checking: Promise<void> | undefined;

  const stop = async (node: NodeState, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
    const child = node.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      node.child = undefined;
      return;
    }
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await node.exited;
    clearTimeout(timer);
    node.child = undefined;
  };
  const close = async (): Promise<void> => {
    closed = true;
    await checking;
    // Joiners first, so no node is left waiting for the others' state.
    for (const node of [...nodes].reverse()) await stop(node, 'SIGKILL').catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };

  try {
    const template = join(root, 'template');
    try {
      execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${template}`, ...user, '--auth-root-authentication-method=normal', '--skip-test-db'], {
        stdio: 'pipe',
        timeout: 120_000,
      });
    } catch (error) {
      const stderr: unknown = typeof error === 'object' && error !== null && 'stderr' in error ? error.stderr : undefined;
      throw new Error(`mariadb-install-db failed: ${stderr instanceof Buffer ? stderr.toString() : String(error)}`);
    }
    for (let index = 0; index < size; index += 1) {
      const dir = join(root, `node${index}`);
      mkdirSync(dir);
      const datadir = join(dir, 'data');
      cpSync(template, datadir, { recursive: true });
      chownTree(dir);
      nodes.push({
        index,
        dir,
        datadir,
        port: await freePort(),
        galeraPort: await freePort(),
        istPort: await freePort(),
        sstPort: await freePort(),
        child: undefined,
        exited: undefined,
        output: '',
        sinceStart: '',
        lastJoin: index === 0 ? 'bootstrap' : 'SST',
      });
    }
    rmSync(template, { recursive: true, force: true });

    const args = (node: NodeState, extra: string[]): string[] => [
      '--no-defaults',
      ...user,
      `--datadir=${node.datadir}`,
      `--port=${node.port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(node.dir, 'mysqld.sock')}`,
      `--pid-file=${join(node.dir, 'mysqld.pid')}`,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=64M',
      '--innodb-log-file-size=48M',
      '--innodb-flush-log-at-trx-commit=0',
      '--max-connections=300',
      '--binlog-format=ROW',
      '--default-storage-engine=InnoDB',
      '--innodb-autoinc-lock-mode=2',
      '--wsrep-on=ON',
      `--wsrep-provider=${GALERA_PROVIDER}`,
      `--wsrep-cluster-name=${clusterName}`,
      `--wsrep-cluster-address=gcomm://${nodes.map((n) => `127.0.0.1:${n.galeraPort}`).join(',')}`,
      `--wsrep-node-address=127.0.0.1:${node.galeraPort}`,
      `--wsrep-node-name=node${node.index}`,
      `--wsrep-provider-options=base_port=${node.galeraPort}; gmcast.listen_addr=tcp://127.0.0.1:${node.galeraPort}; ist.recv_addr=127.0.0.1:${node.istPort}; gcache.size=128M`,
      '--wsrep-sst-method=rsync',
      `--wsrep-sst-receive-address=127.0.0.1:${node.sstPort}`,
      '--wsrep-slave-threads=2',
      ...extra,
    ];

    const launch = (node: NodeState, extra: string[]): void => {
      const child = spawn(MARIADBD, args(node, extra), { stdio: ['ignore', 'pipe', 'pipe'] });
      node.child = child;
      node.sinceStart = '';
      const keep = (chunk: Buffer): void => {
        // The tail is what matters in a failure's report.
        node.output = (node.output + chunk.toString('utf8')).slice(-40_000);
        node.sinceStart = (node.sinceStart + chunk.toString('utf8')).slice(-200_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      node.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    };

    const waitSynced = async (timeoutMs = 120_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        const running = nodes.filter((node) => node.child !== undefined);
        for (const node of running) {
          if (node.child?.exitCode !== null || node.child.signalCode !== null)
            throw new Error(`Galera node ${node.index} exited:\n${node.output.slice(-4000)}`);
        }
        const states = await Promise.all(
          running.map((node) => statusOf(node.port).catch((error: Error): Record<string, string> => ({ error: error.message }))),
        );
        last = JSON.stringify(states);
        if (
          states.every(
            (state) =>
              state['wsrep_local_state_comment'] === 'Synced' &&
              state['wsrep_ready'] === 'ON' &&
              state['wsrep_cluster_status'] === 'Primary' &&
              Number(state['wsrep_cluster_size']) === running.length,
          )
        )
          return;
        if (closed || Date.now() > deadline)
          throw new Error(
            `The Galera cluster did not sync: ${last}\n${nodes.map((node) => `--- node ${node.index} ---\n${node.output.slice(-3000)}`).join('\n')}`,
          );
        await sleep(250);
      }
    };

    /** The node's last committed position after a crash (InnoDB recovery), so it can ask for IST. */
    const recoveredPosition = (node: NodeState): string | undefined => {
      const log = join(node.dir, 'recover.log');
      try {
        execFileSync(MARIADBD, [...args(node, []), '--wsrep-recover', `--log-error=${log}`], { stdio: 'pipe', timeout: 120_000 });
        return /Recovered position: ([0-9a-f-]+:-?\d+)/.exec(readFileSync(log, 'utf8'))?.[1];
      } catch {
        return undefined;
      } finally {
        rmSync(log, { force: true });
      }
    };

    launch(nodes[0], ['--wsrep-new-cluster']);
    await waitSynced();
    // Joiners one at a time: each takes a full state transfer from a donor, which blocks it meanwhile.
    for (const node of nodes.slice(1)) {
      launch(node, []);
      await waitSynced();
    }

    const healthCheck = async (): Promise<void> => {
      while (!closed) {
        await Promise.all(
          nodes.map(async (node) => {
            const state: Record<string, string> = node.child ? await statusOf(node.port).catch(() => ({})) : {};
            synced[node.index] = state['wsrep_local_state_comment'] === 'Synced' && state['wsrep_ready'] === 'ON';
          }),
        );
        await sleep(250);
      }
    };
    nodes.forEach((node) => (synced[node.index] = true));
    checking = healthCheck();

    const cluster: GaleraCluster = {
      synced: (index) => synced[index] === true,
      nodes: nodes.map((node) => ({
        index: node.index,
        port: node.port,
        url: `mysql://root@127.0.0.1:${node.port}/mysql`,
        get running() {
          return node.child !== undefined;
        },
        get lastJoin() {
          return node.lastJoin;
        },
        log: () => node.output,
      })),
      kill: async (index) => {
        await stop(nodes[index], 'SIGKILL');
        synced[index] = false;
      },
      restart: async (index) => {
        const node = nodes[index];
        const position = recoveredPosition(node);
        launch(node, position ? [`--wsrep-start-position=${position}`] : []);
        await waitSynced();
        // With rsync the SST script runs for an IST too (and copies nothing): its own line says which it was.
        node.lastJoin = /rsync SST completed on joiner/.test(node.sinceStart) ? 'SST' : /IST received/.test(node.sinceStart) ? 'IST' : 'unknown';
      },
      waitSynced,
      close,
    };
    return cluster;
  } catch (error) {
    await close();
    throw error;
  }
}

/** A round-robin TCP balancer over the Galera nodes, as a pool's single address in front of a cluster. */
export interface TcpBalancer {
  readonly port: number;
  /** Connections opened to each upstream so far. */
  readonly connections: number[];
  close(): Promise<void>;
}

/**
 * Starts a TCP balancer on a free loopback port: each new connection goes to the next upstream
 * in turn that `healthy` passes; one that refuses (a node that is down) is skipped for the next. Established
 * connections are piped as they are, so a node that dies drops the connections it had.
 */
export async function startTcpBalancer(upstreamPorts: readonly number[], healthy: (index: number) => boolean = () => true): Promise<TcpBalancer> {
  const connections = upstreamPorts.map(() => 0);
  const sockets = new Set<Socket>();
  let next = 0;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.pause();
    const tryUpstream = (tries: number): void => {
      // The next healthy upstream; when none is, the next one anyway (the check may lag behind).
      let index = next % upstreamPorts.length;
      for (let i = 0; i < upstreamPorts.length && !healthy(index); i += 1) index = (index + 1) % upstreamPorts.length;
      if (!healthy(index)) index = next % upstreamPorts.length;
      next = index + 1;
      const upstream = connect(upstreamPorts[index], '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        connections[index] += 1;
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.on('error', () => {
        if (!connected && tries < upstreamPorts.length) {
          tryUpstream(tries + 1);
          return;
        }
        client.destroy();
      });
      upstream.on('close', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
    };
    tryUpstream(1);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the TCP balancer has no port');
  return {
    port: address.port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
