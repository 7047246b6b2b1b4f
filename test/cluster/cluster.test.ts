import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { jsonAt } from '../fixtures';
import { assertAfterChecks } from './checks';
import { clusterSkipReason, startCluster, type Cluster, type Slot } from './cluster';
import { privateServersSkipReason, startPrivateMariaDb, startPrivateRedis, type PrivateServer } from './servers';
import { runWorkload, seededRandom } from './workload';

/**
 * Scale-out tests (docs/operations.md): 3 API processes and 2 workers on one MariaDB database and Redis,
 * behind a round-robin proxy, driven by a seeded workload through the SDK. `CLUSTER_SEED` replays
 * a run's workload and fault schedule; `CLUSTER_SCALE=short` runs the CI-sized version.
 */
const skip = clusterSkipReason();
const short = process.env.CLUSTER_SCALE === 'short';
const seed = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : Math.floor(Math.random() * 2 ** 31);
const scale = short
  ? { flows: 16, concurrency: 4, apiKills: 2, workerKills: 2, gapMs: [200, 600], outages: 1 }
  : { flows: 90, concurrency: 6, apiKills: 8, workerKills: 6, gapMs: [400, 1600], outages: 2 };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What a test does to the cluster while the workload runs. */
type Fault = 'none' | 'kills' | 'mariadb' | 'redis' | 'hang';

/**
 * The hang test: the database stops answering (SIGSTOP) for longer than ANSWER_BOUND_MS, and every
 * request meanwhile must be answered within it (the APIs' request timeout plus slack for a loaded
 * machine), readiness within READINESS_BOUND_MS (its 2 s check plus slack).
 */
const HANG_REQUEST_TIMEOUT_MS = 3_000;
const ANSWER_BOUND_MS = 8_000;
const READINESS_BOUND_MS = 4_000;

/** One outage of a private server, as the fault loop ran it. */
interface Outage {
  readonly signal: 'SIGTERM' | 'SIGKILL' | 'SIGSTOP';
  /** When the server stopped answering and when it was back (epoch ms). */
  readonly from: number;
  readonly until: number;
  readonly downMs: number;
  /** Per API: readiness answered 503 (api_error, Retry-After) while the server was down. */
  readonly notReady: boolean[];
  /** Per API: readiness answered 200 again, ms after the server was back. */
  readonly readyAgainMs: Array<number | undefined>;
  /** Per API: the last readiness answer seen after the restart (status and body). */
  readonly lastReadiness: string[];
  /** The /v1 probes during the outage that were not a 503 api_error with Retry-After (a read without the database, a lock-taking write without Redis); undefined when all were. */
  readonly probe: string | undefined;
}

/** GET `url`; status, Retry-After and the envelope's code, or undefined when nothing answered. */
async function probe(
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
  timeoutMs = 5_000,
): Promise<{ status: number; retryAfter: string | null; code: unknown; body: string } | undefined> {
  try {
    const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
    const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let code: unknown;
    try {
      code = jsonAt(JSON.parse(text), 'error', 'code');
    } catch {
      code = undefined;
    }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), code, body: text.slice(0, 300) };
  } catch {
    return undefined;
  }
}

/** The last `count` warnings and errors of each process's section of the cluster's log (sections start with `--- name ---`). */
function lastWarningsPerProcess(logs: string, count: number): string {
  return logs
    .split(/^(?=--- )/m)
    .map((section) => {
      const [header, ...lines] = section.split('\n');
      return [header, ...lines.filter((line) => /"level":(40|50|60)/.test(line)).slice(-count)].join('\n');
    })
    .join('\n');
}

/** A 503 as the API promises it during an outage: the api_error envelope and a Retry-After in seconds. */
const isUnavailable = (answer: Awaited<ReturnType<typeof probe>>): boolean =>
  answer?.status === 503 && answer.code === 'api_error' && /^\d+$/.test(answer.retryAfter ?? '');

if (skip) {
  test('cluster tests skipped', (t) => {
    t.log(skip);
    t.pass();
  });
} else {
  const run = async (t: ExecutionContext, fault: Fault): Promise<void> => {
    const started = Date.now();
    const replay = `replay with CLUSTER_SEED=${seed}${short ? ' CLUSTER_SCALE=short' : ''}`;
    t.log(`seed ${seed} (${replay})`);
    let cluster: Cluster | undefined;
    let server: PrivateServer | undefined;
    try {
      // The outage tests stop a server: one of their own, never the shared one other suites use.
      if (fault === 'mariadb' || fault === 'hang') server = await startPrivateMariaDb();
      if (fault === 'redis') server = await startPrivateRedis();
      if (server) t.log(`private ${server.name} on port ${server.port} up in ${Date.now() - started} ms`);
      cluster = await startCluster({
        apis: 3,
        workers: 2,
        ...(fault === 'mariadb' || fault === 'hang' ? { databaseServerUrl: server!.url } : {}),
        ...(fault === 'redis' ? { redisUrl: server!.url } : {}),
        ...(fault === 'hang' ? { env: { PAYMENTS_REQUEST_TIMEOUT_MS: String(HANG_REQUEST_TIMEOUT_MS) } } : {}),
      });
      t.log(`cluster up in ${Date.now() - started} ms, proxy ${cluster.proxy.url}`);
      const c = cluster;
      let workloadDone = false;
      const faultLog: string[] = [];
      const outages: Outage[] = [];
      const killLoop = async (): Promise<void> => {
        const random = seededRandom(seed ^ 0x5eed);
        const schedule = [...Array<'api'>(scale.apiKills).fill('api'), ...Array<'worker'>(scale.workerKills).fill('worker')].sort(() => random() - 0.5);
        // Restarts run in the background, so several processes can be down at once (never every API).
        const restarts: Array<Promise<void>> = [];
        for (const kind of schedule) {
          await sleep(scale.gapMs[0] + Math.floor(random() * scale.gapMs[1]));
          if (workloadDone) break;
          const slots: readonly Slot[] = kind === 'api' ? c.apis : c.workers;
          const up = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => slot.current !== undefined);
          if (up.length === 0 || (kind === 'api' && up.length < 2)) continue;
          const { slot, index } = up[Math.floor(random() * up.length)];
          if (kind === 'api') {
            // Mid-request: wait (a little) until the proxy has a request out at this process.
            const until = Date.now() + 3000;
            while (c.proxy.inFlight(index) === 0 && Date.now() < until) await sleep(2);
          }
          const inFlight = kind === 'api' ? c.proxy.inFlight(index) : undefined;
          await slot.kill();
          faultLog.push(`${((Date.now() - started) / 1000).toFixed(1)}s SIGKILL ${slot.name}${inFlight === undefined ? '' : ` (${inFlight} in flight)`}`);
          const pause = 200 + Math.floor(random() * 1500);
          restarts.push(sleep(pause).then(() => slot.restart()));
        }
        await Promise.all(restarts);
      };
      /**
       * Stops the private server mid-workload (seeded: when, which signal, how long), keeps it down
       * while probing every API's readiness and a /v1 read, starts it again on the same port and
       * data, and waits for every API to be ready again. No API or worker is restarted.
       */
      const outageLoop = async (target: PrivateServer): Promise<void> => {
        const random = seededRandom(seed ^ 0x0d0e);
        for (let n = 0; n < scale.outages; n += 1) {
          await sleep((n === 0 ? 300 : 4000) + Math.floor(random() * 1000));
          // The first outage always happens (the workload waits it out); later ones only while there is work.
          if (n > 0 && workloadDone) break;
          const hang = fault === 'hang';
          const signal = hang ? 'SIGSTOP' : random() < 0.5 ? 'SIGKILL' : 'SIGTERM';
          // Redis: the 10 s of the issue; MariaDB: a restart's few seconds; a hang: longer than any request may wait.
          const downMs = target.name === 'redis' ? 10_000 : hang ? ANSWER_BOUND_MS + 1000 + Math.floor(random() * 2000) : 3000 + Math.floor(random() * 2000);
          const inFlight = c.apiUrls.reduce((sum, _, index) => sum + c.proxy.inFlight(index), 0);
          const stoppedAt = Date.now();
          if (signal === 'SIGSTOP') target.pause();
          else await target.stop(signal);
          faultLog.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${signal} ${target.name} (${inFlight} requests in flight), down ${downMs} ms`);
          const notReady = c.apiUrls.map(() => false);
          const probes: string[] = [];
          while (Date.now() - stoppedAt < downMs) {
            await Promise.all(
              c.apiUrls.map(async (url, index) => {
                const asked = Date.now();
                const answer = await probe(`${url}/health/ready`, {}, undefined, 15_000);
                if (isUnavailable(answer)) notReady[index] = true;
                // A hung database must not hang the probe: the balancer's health check gives up too.
                if (hang && Date.now() - asked > READINESS_BOUND_MS) probes.push(`api-${index} readiness took ${Date.now() - asked} ms`);
              }),
            );
            if (target.name === 'mariadb') {
              // A read needs the database and nothing else: it must be 503, never a 500 or a stale
              // answer (during a hang, a read that ends once the server goes on may be answered).
              const read = await probe(`${c.proxy.url}/v1/payment_intents?limit=1`, { authorization: `Bearer ${c.testApiKey}` }, undefined, 15_000);
              if (!isUnavailable(read) && !(hang && read?.status === 200 && Date.now() - stoppedAt >= downMs))
                probes.push(`GET /v1/payment_intents answered ${JSON.stringify(read)}`);
            }
            if (target.name === 'redis') {
              // A new attempt takes its intent's lock before anything else: without Redis it must be a
              // 503, whatever the seeded workload happens to send during the outage.
              const path = `/v1/payment_intents/pi_${randomUUID().replace(/-/g, '')}/attempts`;
              const headers = { authorization: `Bearer ${c.testApiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
              const write = await probe(`${c.proxy.url}${path}`, headers, { payment_method: 'promptpay' });
              if (!isUnavailable(write)) probes.push(`POST ${path} answered ${JSON.stringify(write)}`);
            }
            await sleep(250);
          }
          const restartedAt = Date.now();
          if (signal === 'SIGSTOP') target.resume();
          else await target.start();
          faultLog.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${target.name} back after ${Date.now() - stoppedAt} ms`);
          const readyAgainMs: Array<number | undefined> = c.apiUrls.map(() => undefined);
          // What each API's readiness said last, so a failure shows which check stayed down.
          const lastReadiness: string[] = c.apiUrls.map(() => 'no answer');
          const deadline = Date.now() + 30_000;
          while (readyAgainMs.includes(undefined) && Date.now() < deadline) {
            await Promise.all(
              c.apiUrls.map(async (url, index) => {
                if (readyAgainMs[index] !== undefined) return;
                const answer = await probe(`${url}/health/ready`);
                lastReadiness[index] = answer === undefined ? 'no answer within 5 s' : `${answer.status} ${answer.body}`;
                if (answer?.status === 200) readyAgainMs[index] = Date.now() - restartedAt;
              }),
            );
            await sleep(100);
          }
          outages.push({
            signal,
            from: stoppedAt,
            until: restartedAt,
            downMs,
            notReady,
            readyAgainMs,
            lastReadiness,
            probe: probes.length === 0 ? undefined : probes.slice(0, 5).join('; '),
          });
        }
      };

      const workloadStarted = Date.now();
      const [record] = await Promise.all([
        runWorkload({ seed, flows: scale.flows, concurrency: scale.concurrency, baseUrl: c.proxy.url, apiKey: c.testApiKey }).finally(() => {
          workloadDone = true;
        }),
        fault === 'kills' ? killLoop() : server ? outageLoop(server) : Promise.resolve(),
      ]);
      t.log(
        `workload: ${record.operations} operations, ${record.intents.size} intents, ${record.disputes.size} disputes, ${record.settlements.size} settlements in ${Date.now() - workloadStarted} ms`,
      );
      if (faultLog.length > 0) t.log(`faults: ${faultLog.join('; ')}`);
      t.log(
        `proxy: ${JSON.stringify(c.proxy.stats)}; statuses the clients saw: ${JSON.stringify(c.proxy.statuses)}, errors ${JSON.stringify(c.proxy.errorCodes)}`,
      );
      for (const outage of outages)
        t.log(
          `outage (${outage.signal}, ${outage.downMs} ms): readiness 503 per API ${JSON.stringify(outage.notReady)}, ready again after ${JSON.stringify(outage.readyAgainMs)} ms`,
        );
      await assertAfterChecks(t, c, record, started, replay);
      if (fault === 'kills') t.true(faultLog.length > 0, 'faults were injected');
      if (server) {
        t.true(outages.length > 0, 'the outage happened');
        // What the client saw: the outage as 503s with Retry-After in the api_error envelope, never a 500.
        t.deepEqual(c.proxy.serverErrors, [], `answers of 500 or more other than 503 during the ${server.name} outage (${replay})`);
        t.deepEqual(c.proxy.badUnavailable, [], `503s without Retry-After or the api_error envelope (${replay})`);
        t.true((c.proxy.statuses[503] ?? 0) > 0, `the clients saw the outage as 503s (${replay})`);
        for (const outage of outages) {
          t.deepEqual(
            outage.notReady,
            c.apiUrls.map(() => true),
            `every API's readiness turned 503 during the outage (${replay})`,
          );
          t.false(
            outage.readyAgainMs.includes(undefined),
            `every API was ready again within 30 s of the restart: ${JSON.stringify(outage.readyAgainMs)}, last readiness ${JSON.stringify(outage.lastReadiness)} (${replay})`,
          );
          t.is(outage.probe, undefined, `probes during the outage (${replay})`);
          if (fault === 'hang') {
            // Every request the clients had out while the server hung was answered in time: a 503
            // with Retry-After (checked above for every 503) or its normal answer once it went on.
            const late = c.proxy.timings
              .filter(({ startedAt, answeredAt }) => startedAt <= outage.until && (answeredAt ?? Number.POSITIVE_INFINITY) >= outage.from)
              .filter(({ startedAt, answeredAt }) => (answeredAt ?? Date.now()) - startedAt > ANSWER_BOUND_MS)
              .map(
                ({ request, startedAt, answeredAt, status }) =>
                  `${request}: ${answeredAt === undefined ? 'never answered' : `${status} after ${answeredAt - startedAt} ms`}`,
              );
            t.deepEqual(late, [], `requests during the hang answered within ${ANSWER_BOUND_MS} ms (${replay})`);
          }
        }
        // Recovered on their own: the processes that started are the ones that finished.
        for (const slot of [...c.apis, ...c.workers])
          t.true(slot.current?.running() === true && slot.kills === 0, `${slot.name} ran through the outage without a restart`);
      }
    } catch (error) {
      t.log(replay);
      throw error;
    } finally {
      if (cluster && !t.passed) t.log(lastWarningsPerProcess(cluster.logs(), 15));
      if (server && !t.passed) t.log(`--- ${server.name} ---\n${server.log().split('\n').slice(-30).join('\n')}`);
      await cluster?.close();
      await server?.close();
    }
  };

  test.serial('3 APIs and 2 workers behind a balancer: a seeded mixed workload keeps every promise', (t) => run(t, 'none'));
  test.serial('SIGKILL of workers mid-pass and APIs mid-request, repeatedly during the workload: the same promises hold', (t) => run(t, 'kills'));
  const privateSkip = privateServersSkipReason();
  if (privateSkip) {
    test('outage tests skipped', (t) => {
      t.log(privateSkip);
      t.pass();
    });
  } else {
    test.serial(
      'MariaDB restarted mid-workload (SIGTERM or SIGKILL, a few seconds down): 503 with Retry-After meanwhile, everything recovers, the same promises hold',
      (t) => run(t, 'mariadb'),
    );
    test.serial('Redis down for 10 s mid-workload: 503 with Retry-After meanwhile, everything recovers, the same promises hold', (t) => run(t, 'redis'));
    test.serial(
      'MariaDB hung mid-workload (SIGSTOP for longer than a request may take, then SIGCONT): every request answered in time, 503 with Retry-After meanwhile, everything resumes without a restart, the same promises hold',
      (t) => run(t, 'hang'),
    );
  }
}
