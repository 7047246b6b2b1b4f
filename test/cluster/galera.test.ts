import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createKnex, pendingMigrations } from '@payments/storage-sql';
import { freePort, serviceBaseEnv, startService, type RunningService } from '../e2e/process';
import { jsonAt } from '../fixtures';
import { assertAfterChecks } from './checks';
import { clusterSkipReason, startCluster, type Cluster } from './cluster';
import { galeraSkipReason, startGaleraCluster, startTcpBalancer, type GaleraCluster, type TcpBalancer } from './galera';
import { runWorkload, seededRandom, workloadClient } from './workload';

/**
 * The service on a private 3-node MariaDB Galera cluster (docs/operations.md, "Running on a
 * multi-writer cluster"): every node takes writes, each process's pool spread over the nodes by a
 * round-robin TCP balancer or pinned to one node. `CLUSTER_SCALE=short` is the CI-sized run,
 * `CLUSTER_SEED` replays a workload.
 */
const skip = clusterSkipReason() ?? galeraSkipReason();
const short = process.env.CLUSTER_SCALE === 'short';
const seed = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : Math.floor(Math.random() * 2 ** 31);
const scale = short
  ? { startupRounds: 1, raceRounds: 1, racePairs: 20, flows: 30, concurrency: 4, killAfterRequests: 15, nodeDownMs: 3000 }
  : { startupRounds: 3, raceRounds: 3, racePairs: 40, flows: 90, concurrency: 6, killAfterRequests: 60, nodeDownMs: 5000 };
const replay = `replay with CLUSTER_SEED=${seed}${short ? ' CLUSTER_SCALE=short' : ''}`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `url` with its host and port replaced: the same database through another address. */
function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.host = `127.0.0.1:${port}`;
  return parsed.toString();
}

/** An answer a client may get from the service: 2xx, 4xx, or 503 with Retry-After in the api_error envelope. Never a 500. */
function acceptable(status: number, retryAfter: string | null, body: string): boolean {
  if (status < 500) return true;
  if (status !== 503 || !/^\d+$/.test(retryAfter ?? '')) return false;
  try {
    return jsonAt(JSON.parse(body), 'error', 'code') === 'api_error';
  } catch {
    return false;
  }
}

if (skip) {
  test('Galera tests skipped', (t) => {
    t.log(skip);
    t.pass();
  });
} else {
  let galera: GaleraCluster | undefined;
  const balancers: TcpBalancer[] = [];

  test.before(async (t) => {
    const started = Date.now();
    galera = await startGaleraCluster(3);
    t.log(`Galera: 3 nodes Synced in ${Date.now() - started} ms (ports ${galera.nodes.map((node) => node.port).join(', ')})`);
  });
  test.after.always(async () => {
    for (const balancer of balancers) await balancer.close().catch(() => undefined);
    await galera?.close();
  });

  const nodes = (): GaleraCluster => {
    if (!galera) throw new Error('the Galera cluster did not start');
    return galera;
  };

  /** A round-robin TCP balancer over every node, one per process: each process's pool uses every node. */
  const spreadOverNodes = async (): Promise<{ url: (url: string, name: string) => string; perProcess: Map<string, TcpBalancer> }> => {
    const perProcess = new Map<string, TcpBalancer>();
    for (const name of ['api-0', 'api-1', 'api-2', 'worker-0', 'worker-1']) {
      const balancer = await startTcpBalancer(
        nodes().nodes.map((node) => node.port),
        (index) => nodes().synced(index),
      );
      balancers.push(balancer);
      perProcess.set(name, balancer);
    }
    return {
      perProcess,
      url: (url, name) => {
        const balancer = perProcess.get(name);
        if (!balancer) throw new Error(`no balancer for ${name}`);
        return viaPort(url, balancer.port);
      },
    };
  };

  /** What `GET /health/ready` of `service` answers now: its status and what it says of the database. */
  const readiness = async (service: RunningService | undefined): Promise<string> => {
    const res = await fetch(`${service!.baseUrl}/health/ready`).catch(() => undefined);
    if (!res) return 'no answer';
    const body: unknown = await res.json().catch(() => undefined);
    // Ready: the database check's state; not ready: the envelope's message, which names the failing checks.
    return `${res.status} ${String(res.status === 200 ? jsonAt(body, 'checks', 'database') : jsonAt(body, 'error', 'message'))}`;
  };

  /** Waits up to 15 s for `service`'s readiness to say `expected`; what it said last. */
  const readinessBecomes = async (service: RunningService | undefined, expected: string): Promise<string> => {
    let last = await readiness(service);
    for (const deadline = Date.now() + 15_000; last !== expected && Date.now() < deadline; last = await readiness(service)) await sleep(200);
    return last;
  };

  /**
   * The balancer's view of a node that is not Synced: node 1 desynced (as a donor or a lagging
   * node is), the API on it answers readiness 503 `not_synced` while the others stay ready, and
   * ready again once the node is back in sync.
   */
  const desyncedNodeIsNotReady = async (t: ExecutionContext, galera: GaleraCluster, services: Array<RunningService | undefined>): Promise<void> => {
    const node = createKnex(galera.nodes[1].url);
    try {
      await node.raw('SET GLOBAL wsrep_desync = ON');
      const notSynced = '503 Not ready: database not_synced.';
      t.is(await readinessBecomes(services[1], notSynced), notSynced, 'the API on a desynced node is not ready');
      t.deepEqual([await readiness(services[0]), await readiness(services[2])], ['200 ok', '200 ok'], 'the APIs on synced nodes stay ready');
    } finally {
      await node.raw('SET GLOBAL wsrep_desync = OFF').catch(() => undefined);
    }
    t.is(await readinessBecomes(services[1], '200 ok'), '200 ok', 'ready again once the node is Synced');
    await node.destroy();
  };

  test.serial(
    'concurrent start-up on an empty database: one process per node, all come up, every migration runs once; the API on a desynced node is not ready',
    async (t) => {
      const galera = nodes();
      for (let round = 1; round <= scale.startupRounds; round += 1) {
        const name = `pg_${randomBytes(8).toString('hex')}`;
        const admin = createKnex(galera.nodes[0].url);
        const dataDirs: string[] = [];
        const services: Array<RunningService | undefined> = [];
        try {
          await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
          const masterKey = randomBytes(32).toString('hex');
          const prefix = `galera-startup:${Date.now()}:`;
          const envs = await Promise.all(
            galera.nodes.map(async (node) => {
              const dataDir = mkdtempSync(join(tmpdir(), 'payments-galera-startup-'));
              dataDirs.push(dataDir);
              const url = new URL(node.url);
              url.pathname = `/${name}`;
              return {
                ...serviceBaseEnv(dataDir, await freePort()),
                PAYMENTS_DATABASE_URL: url.toString(),
                PAYMENTS_REDIS_URL: process.env.PAYMENTS_TEST_REDIS_URL,
                PAYMENTS_REDIS_PREFIX: prefix,
                PAYMENTS_MASTER_KEY: masterKey,
                PAYMENTS_METRICS_PORT: '0',
              };
            }),
          );
          const started = Date.now();
          // All at once, each on its own node: every one of them finds the schema missing.
          const outcomes = await Promise.allSettled(envs.map((env) => startService(env, 'apps/api/dist/src/main.js', [])));
          const failures: string[] = [];
          for (const [index, outcome] of outcomes.entries()) {
            if (outcome.status === 'fulfilled') services.push(outcome.value);
            else failures.push(`node ${index}: ${outcome.reason instanceof Error ? outcome.reason.message.slice(-1500) : String(outcome.reason)}`);
          }
          const ready: boolean[] = [];
          for (const service of services) {
            let ok = false;
            const deadline = Date.now() + 30_000;
            while (!ok && Date.now() < deadline) {
              const res = await fetch(`${service!.baseUrl}/health/ready`).catch(() => undefined);
              ok = res?.status === 200;
              if (!ok) await sleep(200);
            }
            ready.push(ok);
          }
          const [rows] = await admin.raw<[Array<{ name: string; times: number }>]>(
            `SELECT name, COUNT(*) AS times FROM \`${name}\`.knex_migrations GROUP BY name ORDER BY name`,
          );
          const twice = rows.filter((row) => Number(row.times) !== 1).map((row) => `${row.name} ×${row.times}`);
          const schema = createKnex(new URL(`/${name}`, galera.nodes[0].url).toString());
          const pending = await pendingMigrations(schema).finally(() => schema.destroy());
          t.log(
            `start-up round ${round}: ${ready.filter(Boolean).length} of 3 ready in ${Date.now() - started} ms, ${rows.length} migrations recorded (${pending.length} pending), run more than once: ${twice.length}`,
          );
          t.deepEqual(failures, [], `round ${round}: every process started`);
          t.deepEqual(ready, [true, true, true], `round ${round}: every process answered readiness 200`);
          t.deepEqual(pending, [], `round ${round}: every migration recorded`);
          t.deepEqual(twice, [], `round ${round}: no migration recorded twice`);
          if (round === 1 && services.length === 3) await desyncedNodeIsNotReady(t, galera, services);
        } finally {
          for (const service of services) await service?.stop();
          await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``).catch(() => undefined);
          await admin.destroy();
          for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
        }
      }
    },
  );

  test.serial('two APIs on two nodes without Redis: two attempts raced at every intent leave at most one pending', async (t) => {
    const galera = nodes();
    const cluster = await startCluster({
      apis: 2,
      workers: 0,
      withoutRedis: true,
      databaseServerUrl: galera.nodes[0].url,
      processDatabaseUrl: (url, name) => viaPort(url, galera.nodes[name === 'api-1' ? 1 : 0].port),
    });
    const databaseUrl = cluster.env['PAYMENTS_DATABASE_URL'] ?? '';
    const reader = createKnex(viaPort(databaseUrl, galera.nodes[2].port));
    try {
      const payments = workloadClient(cluster.testApiKey, cluster.proxy.url);
      const statuses: Record<string, number> = {};
      const unacceptable: string[] = [];
      let doubles = 0;
      let pairs = 0;
      let bothPlaced = 0;
      const twoAttempts: string[] = [];
      for (let round = 1; round <= scale.raceRounds; round += 1) {
        const started = Date.now();
        const intents: string[] = [];
        for (let i = 0; i < scale.racePairs; i += 1)
          intents.push(
            (
              await payments.paymentIntents.create(
                { amount: 10_050 + i * 100, currency: 'THB', merchant_order_id: `race-${seed}-${round}-${i}` },
                { idempotencyKey: randomUUID() },
              )
            ).id,
          );
        const place = async (apiUrl: string, intent: string): Promise<{ status: number; attempt: string | undefined }> => {
          const res = await fetch(`${apiUrl}/v1/payment_intents/${intent}/attempts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${cluster.testApiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ payment_method: 'promptpay' }),
          });
          const body = await res.text();
          let code = '';
          let attempt: string | undefined;
          try {
            const parsed: unknown = JSON.parse(body);
            const errorCode = jsonAt(parsed, 'error', 'code');
            code = typeof errorCode === 'string' ? errorCode : '';
            const id = jsonAt(parsed, 'id');
            attempt = typeof id === 'string' ? id : undefined;
          } catch {
            code = '';
          }
          const label = `${res.status}${code ? ` ${code}` : ''}`;
          statuses[label] = (statuses[label] ?? 0) + 1;
          if (!acceptable(res.status, res.headers.get('retry-after'), body))
            unacceptable.push(`${res.status} POST attempts of ${intent}: ${body.slice(0, 200)}`);
          return { status: res.status, attempt };
        };
        // One pair at a time in flight per intent, a few intents at once: both requests of a pair leave together.
        for (let i = 0; i < intents.length; i += 4) {
          await Promise.all(
            intents.slice(i, i + 4).map(async (intent) => {
              const [a, b] = await Promise.all([place(cluster.apiUrls[0], intent), place(cluster.apiUrls[1], intent)]);
              pairs += 1;
              if (a.status < 300 && b.status < 300) {
                bothPlaced += 1;
                // The loser goes on with the winner's attempt (answered again, or resumed): one attempt per pair.
                if (a.attempt !== b.attempt) twoAttempts.push(`${intent}: ${a.attempt} and ${b.attempt}`);
              }
            }),
          );
        }
        // Read on the third node, after it has applied everything the cluster committed before.
        const rows = await reader.transaction(async (trx) => {
          await trx.raw('SET SESSION wsrep_sync_wait = 1');
          const [found] = await trx.raw<[Array<{ payment_intent_id: string; pending: number }>]>(
            `SELECT payment_intent_id, COUNT(*) AS pending FROM payment_attempts WHERE status = 'pending' AND payment_intent_id IN (${intents.map(() => '?').join(',')}) GROUP BY payment_intent_id HAVING COUNT(*) > 1`,
            intents,
          );
          return found;
        });
        doubles += rows.length;
        t.log(`race round ${round}: ${intents.length} pairs in ${Date.now() - started} ms, intents with two pending attempts: ${rows.length}`);
      }
      t.log(`race: ${pairs} pairs, both answered 2xx: ${bothPlaced}, of them naming two attempts: ${twoAttempts.length}; answers ${JSON.stringify(statuses)}`);
      t.is(doubles, 0, `intents with two pending attempts (${replay})`);
      t.deepEqual(twoAttempts, [], 'both answers of a pair name the same attempt');
      t.deepEqual(unacceptable, [], 'every answer was 2xx, 4xx or 503 with Retry-After');
      t.true(pairs >= scale.raceRounds * scale.racePairs, 'every pair raced');
    } finally {
      if (!t.passed)
        t.log(
          cluster
            .logs()
            .split('\n')
            .filter((line) => /"level":(50|60)/.test(line))
            .slice(-20)
            .join('\n'),
        );
      await reader.destroy();
      await cluster.close();
    }
  });

  /** The seeded workload on 3 APIs and 2 workers, each with a balancer over the 3 nodes; `nodeLoss` SIGKILLs a node mid-workload and restarts it. */
  const workloadRun = async (t: ExecutionContext, nodeLoss: boolean): Promise<void> => {
    const galera = nodes();
    const started = Date.now();
    t.log(`seed ${seed} (${replay})`);
    const spread = await spreadOverNodes();
    let cluster: Cluster | undefined;
    try {
      cluster = await startCluster({ apis: 3, workers: 2, databaseServerUrl: galera.nodes[0].url, processDatabaseUrl: spread.url });
      t.log(`service up in ${Date.now() - started} ms, proxy ${cluster.proxy.url}`);
      const c = cluster;
      let workloadDone = false;
      const faults: string[] = [];
      let killedMidWorkload = false;
      const nodeLossLoop = async (): Promise<void> => {
        const random = seededRandom(seed ^ 0x6a1e);
        // Mid-workload: once the clients have sent a few requests, so every pool has connections to every node.
        while (c.proxy.stats.forwarded < scale.killAfterRequests && !workloadDone) await sleep(20);
        const index = Math.floor(random() * galera.nodes.length);
        killedMidWorkload = !workloadDone;
        const killedAt = Date.now();
        await galera.kill(index);
        faults.push(`${((killedAt - started) / 1000).toFixed(1)}s SIGKILL node ${index}`);
        await sleep(scale.nodeDownMs);
        const restartedAt = Date.now();
        await galera.restart(index);
        faults.push(
          `node ${index} down ${restartedAt - killedAt} ms, Synced again ${Date.now() - restartedAt} ms after its restart (${galera.nodes[index].lastJoin}), workload ${workloadDone ? 'already done' : 'still running'}`,
        );
      };
      const workloadStarted = Date.now();
      const [record] = await Promise.all([
        runWorkload({ seed, flows: scale.flows, concurrency: scale.concurrency, baseUrl: c.proxy.url, apiKey: c.testApiKey, readBackUrls: c.apiUrls }).finally(
          () => {
            workloadDone = true;
          },
        ),
        nodeLoss ? nodeLossLoop() : Promise.resolve(),
      ]);
      t.log(
        `workload: ${record.operations} operations, ${record.intents.size} intents, ${record.disputes.size} disputes, ${record.settlements.size} settlements in ${Date.now() - workloadStarted} ms; stale reads ${record.staleReads.length}`,
      );
      if (faults.length > 0) t.log(`faults: ${faults.join('; ')}`);
      t.log(
        `database connections per node (api-0…2, worker-0…1): ${[...spread.perProcess].map(([name, b]) => `${name} ${JSON.stringify(b.connections)}`).join(', ')}`,
      );
      t.log(
        `statuses the clients saw: ${JSON.stringify(c.proxy.statuses)} (503s: ${c.proxy.statuses[503] ?? 0}), errors ${JSON.stringify(c.proxy.errorCodes)}`,
      );
      await assertAfterChecks(t, c, record, started, replay);
      t.deepEqual(c.proxy.serverErrors, [], `answers of 500 or more other than 503 (${replay})`);
      // The merchants' API keeps the 503 contract; the channels' callback route answers them with its own codes (a channel retries anyway).
      const callbacks = c.proxy.badUnavailable.filter((line) => line.includes(' /channels/'));
      if (callbacks.length > 0) t.log(`503s to the channels' callbacks without the api_error envelope: ${callbacks.join('; ')}`);
      t.deepEqual(
        c.proxy.badUnavailable.filter((line) => !line.includes(' /channels/')),
        [],
        `503s without Retry-After or the api_error envelope (${replay})`,
      );
      if (nodeLoss) {
        t.true(killedMidWorkload, `the node was killed while the workload ran (${replay})`);
        t.is(faults.length, 2, `the node was killed and rejoined (${replay})`);
      }
    } finally {
      if (cluster && !t.passed)
        t.log(
          cluster
            .logs()
            .split('\n')
            .filter((line) => line.startsWith('---') || /"level":(40|50|60)/.test(line))
            .slice(-40)
            .join('\n'),
        );
      await cluster?.close();
      for (const balancer of spread.perProcess.values()) await balancer.close();
    }
  };

  test.serial('seeded workload on 3 APIs and 2 workers spread over the nodes: every promise holds, every write is read back at once elsewhere', (t) =>
    workloadRun(t, false),
  );
  test.serial('a Galera node SIGKILLed mid-workload and rejoining: only 2xx, 4xx and 503 with Retry-After, every promise holds', (t) => workloadRun(t, true));

  // Reported so a failure's log names the node states.
  test.afterEach.always((t) => {
    if (!t.passed && galera) for (const node of galera.nodes) t.log(`--- Galera node ${node.index} ---\n${node.log().split('\n').slice(-15).join('\n')}`);
  });
}
