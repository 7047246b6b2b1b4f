import { randomBytes } from 'node:crypto';
import { freePort, runAdmin, serviceEnvironment, startService, startWorker, type ServiceEnvironment, type SpawnedProcess } from '../e2e/process';
import { textAt } from '../fixtures';
import { insertWebhookEndpoint } from '../e2e/webhook-endpoint-fixture';
import { startWebhookReceiver, type WebhookReceiver } from '../e2e/webhook-receiver';
import { startRoundRobinProxy, type RoundRobinProxy } from './proxy';

/** Why the cluster tests cannot run here, or undefined when they can. */
export function clusterSkipReason(): string | undefined {
  const missing = ['PAYMENTS_TEST_DATABASE_URL', 'PAYMENTS_TEST_REDIS_URL'].filter((name) => !process.env[name]);
  return missing.length === 0
    ? undefined
    : `test/cluster needs MariaDB and Redis: set ${missing.join(' and ')} (e.g. mysql://root@127.0.0.1:3306/test, redis://127.0.0.1:6379)`;
}

/** One slot of the cluster: the process running in it now, restartable after a kill. */
export interface Slot {
  readonly name: string;
  current: SpawnedProcess | undefined;
  readonly kills: number;
  /** SIGKILL the current process (no shutdown at all). */
  kill(): Promise<void>;
  /** Starts a fresh process in this slot (same port for an API). */
  restart(): Promise<void>;
}

export interface Cluster {
  readonly env: NodeJS.ProcessEnv;
  readonly proxy: RoundRobinProxy;
  readonly receiver: WebhookReceiver;
  readonly apis: readonly Slot[];
  readonly workers: readonly Slot[];
  /** Each API process's own address (the proxy's upstreams), for probing one directly. */
  readonly apiUrls: readonly string[];
  readonly merchantId: string;
  readonly testApiKey: string;
  /** `ledger verify` through the admin CLI on the cluster's database. */
  verifyLedger(): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Output of every process that ran, for a failure's log. */
  logs(): string;
  close(): Promise<void>;
}

export interface ClusterOptions {
  readonly apis?: number;
  readonly workers?: number;
  /** A MariaDB server to create the cluster's database on instead of PAYMENTS_TEST_DATABASE_URL's (the outage tests' private one). */
  readonly databaseServerUrl?: string;
  /** A Redis instead of PAYMENTS_TEST_REDIS_URL's. */
  readonly redisUrl?: string;
  /** More environment for every process (a test's own settings). */
  readonly env?: NodeJS.ProcessEnv;
  /** No Redis at all: every process keeps its locks in process, so only the database's own checks stand between processes. */
  readonly withoutRedis?: boolean;
  /**
   * The database URL one process (`api-0`, `worker-1`, …) is given, from the cluster's database
   * URL: another address of the same database, e.g. its own balancer over a cluster's nodes.
   * Default: the cluster's URL for every process.
   */
  readonly processDatabaseUrl?: (url: string, processName: string) => string;
}

/**
 * Starts N API processes and M workers on one fresh MariaDB database and Redis, a round-robin
 * proxy in front of the APIs (the channels call back through it, as through a balancer), a
 * TLS webhook receiver with an endpoint registered for the merchant, and a manual-schedule
 * merchant whose test key the workload uses.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const environment: ServiceEnvironment = await serviceEnvironment({ databaseServerUrl: options.databaseServerUrl, redisUrl: options.redisUrl });
  const closers: Array<() => Promise<unknown>> = [async () => environment.cleanup()];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const receiver = await startWebhookReceiver({ hostname: 'cluster.test.example' });
    closers.push(() => receiver.close());
    const apiPorts: number[] = [];
    for (let i = 0; i < (options.apis ?? 3); i += 1) apiPorts.push(await freePort());
    const proxy = await startRoundRobinProxy(apiPorts);
    closers.push(() => proxy.close());

    const base: NodeJS.ProcessEnv = { ...environment.env };
    if (options.withoutRedis) {
      delete base['PAYMENTS_REDIS_URL'];
      delete base['PAYMENTS_REDIS_PREFIX'];
    }
    const env: NodeJS.ProcessEnv = {
      ...base,
      ...receiver.env,
      PAYMENTS_MASTER_KEY: randomBytes(32).toString('hex'),
      // The balancer is the public address: checkout URLs and the channels' callbacks go through it.
      PAYMENTS_BASE_URL: proxy.url,
      PAYMENTS_CHANNEL_CALLBACK_URL: proxy.url,
      PAYMENTS_RATE_LIMIT_TEST: '0',
      PAYMENTS_WEBHOOK_LEASE_MS: '12000',
      PAYMENTS_TICK_MS: '200',
      PAYMENTS_METRICS_PORT: '0',
      ...options.env,
    };

    const admin = await runAdmin(env, [
      'merchant',
      'create',
      '--name',
      'Cluster',
      '--email',
      `cluster-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`,
      '--password',
      'a long enough password',
      '--schedule',
      'manual',
    ]);
    if (admin.code !== 0) throw new Error(`merchant create failed: ${admin.stderr}`);
    const created: unknown = JSON.parse(admin.stdout);
    const merchantId = textAt(created, 'merchant', 'id');

    // Straight into the database, as the relay e2e tests do: the dashboard refuses the receiver's port-bearing test host.
    await insertWebhookEndpoint(env, { merchantId, url: receiver.url, secret: randomBytes(32).toString('hex') });

    const databaseUrlOf = (name: string): NodeJS.ProcessEnv => {
      const url = env['PAYMENTS_DATABASE_URL'];
      return options.processDatabaseUrl && url ? { PAYMENTS_DATABASE_URL: options.processDatabaseUrl(url, name) } : {};
    };
    const finished: string[] = [];
    const slot = (name: string, start: () => Promise<SpawnedProcess>, onDown: () => void, onUp: () => void): Slot => {
      let kills = 0;
      const s: Slot = {
        name,
        current: undefined,
        get kills() {
          return kills;
        },
        async kill() {
          const process = s.current;
          if (!process) return;
          s.current = undefined;
          onDown();
          await process.kill();
          kills += 1;
          finished.push(`--- ${name} (killed) ---\n${process.output()}`);
        },
        async restart() {
          s.current = await start();
          onUp();
        },
      };
      return s;
    };
    const apis = apiPorts.map((port, index) =>
      slot(
        `api-${index}`,
        () => startService({ ...env, PAYMENTS_PORT: String(port), ...databaseUrlOf(`api-${index}`) }, 'apps/api/dist/src/main.js', []),
        () => proxy.setUp(index, false),
        () => proxy.setUp(index, true),
      ),
    );
    const workers = Array.from({ length: options.workers ?? 2 }, (_, index) =>
      slot(
        `worker-${index}`,
        () => startWorker({ ...env, ...databaseUrlOf(`worker-${index}`) }),
        () => undefined,
        () => undefined,
      ),
    );
    closers.push(async () => {
      for (const s of [...apis, ...workers]) {
        const process = s.current;
        s.current = undefined;
        if (process) {
          await process.stop();
          finished.push(`--- ${s.name} ---\n${process.output()}`);
        }
      }
    });
    await Promise.all([...apis, ...workers].map((s) => s.restart()));

    return {
      env,
      proxy,
      receiver,
      apis,
      workers,
      apiUrls: apiPorts.map((port) => `http://127.0.0.1:${port}`),
      merchantId,
      testApiKey: textAt(created, 'test_api_key'),
      verifyLedger: () => runAdmin(env, ['ledger', 'verify']),
      logs: () => [...finished, ...[...apis, ...workers].filter((s) => s.current).map((s) => `--- ${s.name} ---\n${s.current?.output() ?? ''}`)].join('\n'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
