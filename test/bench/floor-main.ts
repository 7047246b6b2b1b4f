import { createHash, randomBytes } from 'node:crypto';
import { failStart, serveUntilStopped, type FloorReady } from './ipc';
import { close, controlServer, hapiPort, listen, promiseHooksOn } from './floor-control';
import { startHapiFloor } from './floor-hapi';
import { openKnexFloor } from './floor-knex';
import { openMariaDbFloor } from './floor-mariadb';
import { createFloorServer, startBareHapi } from './floor-server';
import { openSqliteFloor } from './floor-sqlite';
import { FLOOR_MERCHANT_ID, FLOOR_MODE, type FloorStore } from './floor-store';

/**
 * The floor in a process of its own, on the empty database the bench made for it
 * (BENCH_FLOOR_DATABASE_URL: `mysql://…/pf_<random>` or `sqlite:<file>`): creates its schema and
 * one test key, then serves the node:http floor, the bare Hapi server and the counters port. With
 * BENCH_FLOOR_LADDER=1 also the first two rungs of the ladder: the floor's routes on bare Hapi
 * over the same driver store, and over a knex store (no AsyncLocalStorage: this process must keep
 * promise hooks off, which it reports).
 */
async function main(): Promise<void> {
  const url = process.env['BENCH_FLOOR_DATABASE_URL'];
  if (!url) throw new Error('BENCH_FLOOR_DATABASE_URL is required');
  const apiKey = `sk_test_${randomBytes(24).toString('base64url')}`;
  const key = { prefix: apiKey.slice(0, 16), digest: createHash('sha256').update(apiKey).digest('hex'), merchant_id: FLOOR_MERCHANT_ID, mode: FLOOR_MODE };
  const store = url.startsWith('sqlite:') ? openSqliteFloor(url.slice('sqlite:'.length), key) : await openMariaDbFloor(url, key);
  const closers: Array<() => Promise<void>> = [() => store.close()];
  const closeAll = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const server = createFloorServer(store);
    const port = await listen(server);
    closers.push(() => close(server));
    const hapi = await startBareHapi();
    closers.push(() => hapi.stop({ timeout: 5_000 }));
    const stores: FloorStore[] = [store];
    let ladder: FloorReady['ladder'];
    if (process.env['BENCH_FLOOR_LADDER'] === '1') {
      const hapiDriver = await startHapiFloor(store);
      closers.push(() => hapiDriver.stop({ timeout: 5_000 }));
      const knexStore = await openKnexFloor(url, { unitOfWork: false });
      closers.push(() => knexStore.close());
      stores.push(knexStore);
      const hapiKnex = await startHapiFloor(knexStore);
      closers.push(() => hapiKnex.stop({ timeout: 5_000 }));
      ladder = { hapiDriverPort: hapiPort(hapiDriver), hapiKnexPort: hapiPort(hapiKnex) };
    }
    const control = controlServer(stores, store);
    const controlPort = await listen(control);
    closers.push(() => close(control));
    const ready: FloorReady = { port, hapiPort: hapiPort(hapi), controlPort, apiKey, promiseHooks: await promiseHooksOn(), ...(ladder ? { ladder } : {}) };
    serveUntilStopped(ready, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

main().catch(failStart);
