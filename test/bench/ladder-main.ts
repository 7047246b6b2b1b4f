import { failStart, serveUntilStopped, type LadderReady } from './ipc';
import { close, controlServer, hapiPort, listen, promiseHooksOn } from './floor-control';
import { startHapiFloor } from './floor-hapi';
import { openKnexFloor } from './floor-knex';

/**
 * The ladder's "hapi + knex + unit of work" rung in a process of its own (its own knex pool and
 * counters, as the service has): the floor's routes on bare
 * Hapi over a knex store that runs through a KnexContext, on the floor's database, schema and key
 * (BENCH_FLOOR_DATABASE_URL; the floor process made them, so this one starts after it).
 */
async function main(): Promise<void> {
  const url = process.env['BENCH_FLOOR_DATABASE_URL'];
  if (!url) throw new Error('BENCH_FLOOR_DATABASE_URL is required');
  const store = await openKnexFloor(url, { unitOfWork: true });
  const closers: Array<() => Promise<void>> = [() => store.close()];
  const closeAll = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    const server = await startHapiFloor(store);
    closers.push(() => server.stop({ timeout: 5_000 }));
    const control = controlServer([store], store);
    const controlPort = await listen(control);
    closers.push(() => close(control));
    const ready: LadderReady = { port: hapiPort(server), controlPort, promiseHooks: await promiseHooksOn() };
    serveUntilStopped(ready, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

main().catch(failStart);
