import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { failStart, serveUntilStopped, type FloorReady } from './ipc';
import { openMariaDbFloor } from './floor-mariadb';
import { createFloorServer, startBareHapi } from './floor-server';
import { openSqliteFloor } from './floor-sqlite';
import { FLOOR_MERCHANT_ID, FLOOR_MODE, type FloorStore } from './floor-store';

/** The counters port: statements the floor ran and its payment_intents rows, for the bench's checks. */
function controlServer(store: FloorStore): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/counters') return void res.writeHead(404).end();
    Promise.resolve(store.countIntents()).then(
      (intents) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...store.counters(), intents })),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The floor in a process of its own, on the empty database the bench made for it
 * (BENCH_FLOOR_DATABASE_URL: `mysql://…/pf_<random>` or `sqlite:<file>`): creates its schema and
 * one test key, then serves the node:http floor, the bare Hapi server and the counters port.
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
    const control = controlServer(store);
    const controlPort = await listen(control);
    closers.push(() => close(control));
    const ready: FloorReady = { port, hapiPort: hapi.info.port as number, controlPort, apiKey };
    serveUntilStopped(ready, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

main().catch(failStart);
