import test from 'ava';
import { afterChecks } from './checks';
import { clusterSkipReason, startCluster, type Cluster, type Slot } from './cluster';
import { runWorkload, seededRandom } from './workload';

/**
 * Scale-out tests (issue 9): 3 API processes and 2 workers on one MariaDB database and Redis,
 * behind a round-robin proxy, driven by a seeded workload through the SDK. `CLUSTER_SEED` replays
 * a run's workload and fault schedule; `CLUSTER_SCALE=short` runs the CI-sized version.
 */
const skip = clusterSkipReason();
const short = process.env.CLUSTER_SCALE === 'short';
const seed = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : Math.floor(Math.random() * 2 ** 31);
const scale = short ? { flows: 16, concurrency: 4, apiKills: 2, workerKills: 2, gapMs: [200, 600] } : { flows: 90, concurrency: 6, apiKills: 8, workerKills: 6, gapMs: [400, 1600] };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

if (skip) {
  test('cluster tests skipped', (t) => {
    t.log(skip);
    t.pass();
  });
} else {
  const run = async (t: import('ava').ExecutionContext, faults: boolean): Promise<void> => {
    const started = Date.now();
    const replay = `replay with CLUSTER_SEED=${seed}${short ? ' CLUSTER_SCALE=short' : ''}`;
    t.log(`seed ${seed} (${replay})`);
    let cluster: Cluster | undefined;
    try {
      cluster = await startCluster({ apis: 3, workers: 2 });
      t.log(`cluster up in ${Date.now() - started} ms, proxy ${cluster.proxy.url}`);
      const c = cluster;
      let workloadDone = false;
      const faultLog: string[] = [];
      const faultLoop = async (): Promise<void> => {
        if (!faults) return;
        const random = seededRandom(seed ^ 0x5eed);
        const schedule = [...Array<'api'>(scale.apiKills).fill('api'), ...Array<'worker'>(scale.workerKills).fill('worker')].sort(() => random() - 0.5);
        // Restarts run in the background, so several processes can be down at once (never every API).
        const restarts: Array<Promise<void>> = [];
        for (const kind of schedule) {
          await sleep(scale.gapMs[0]! + Math.floor(random() * scale.gapMs[1]!));
          if (workloadDone) break;
          const slots: readonly Slot[] = kind === 'api' ? c.apis : c.workers;
          const up = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => slot.current !== undefined);
          if (up.length === 0 || (kind === 'api' && up.length < 2)) continue;
          const { slot, index } = up[Math.floor(random() * up.length)]!;
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
      const workloadStarted = Date.now();
      const [record] = await Promise.all([
        runWorkload({ seed, flows: scale.flows, concurrency: scale.concurrency, baseUrl: c.proxy.url, apiKey: c.testApiKey }).finally(() => {
          workloadDone = true;
        }),
        faultLoop(),
      ]);
      t.log(`workload: ${record.operations} operations, ${record.intents.size} intents, ${record.disputes.size} disputes, ${record.settlements.size} settlements in ${Date.now() - workloadStarted} ms`);
      if (faultLog.length > 0) t.log(`faults: ${faultLog.join('; ')}`);
      t.log(`proxy: ${JSON.stringify(c.proxy.stats)}`);
      const checksStarted = Date.now();
      const checks = await afterChecks(c, record);
      t.log(`after-checks: ${checks.intents} intents, ${checks.events} events, ${checks.deliveries} deliveries in ${Date.now() - checksStarted} ms; total ${Date.now() - started} ms`);
      if (checks.notices.length > 0) t.log(`notices: ${checks.notices.join('; ')}`);
      t.deepEqual(record.errors, [], `the client saw errors (${replay})`);
      t.deepEqual(checks.problems, [], `broken promises (${replay})`);
      t.true(record.intents.size > 0 && checks.events > 0, `the workload did something (${replay})`);
      if (faults) t.true(faultLog.length > 0, 'faults were injected');
    } catch (error) {
      t.log(replay);
      throw error;
    } finally {
      if (cluster && !t.passed) t.log(cluster.logs().split('\n').filter((line) => line.startsWith('---') || /"level":(40|50|60)/.test(line)).slice(-80).join('\n'));
      await cluster?.close();
    }
  };

  test.serial('3 APIs and 2 workers behind a balancer: a seeded mixed workload keeps every promise', (t) => run(t, false));
  test.serial('SIGKILL of workers mid-pass and APIs mid-request, repeatedly during the workload: the same promises hold', (t) => run(t, true));
}
