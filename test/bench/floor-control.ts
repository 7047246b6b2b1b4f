import { executionAsyncId } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import { listeningPort } from '@payments/node-runtime';
import type { FloorStore } from './floor-store';

/**
 * The counters port of a floor process: the statements its stores ran (summed: the bench measures
 * one server at a time, so a run's difference is that server's) and the payment_intents rows of
 * the floor's database (read through `rows`, not counted), for the bench's checks.
 */
export function controlServer(stores: readonly FloorStore[], rows: FloorStore): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/counters') return void res.writeHead(404).end();
    Promise.resolve(rows.countIntents()).then(
      (intents) => {
        const sum = { statements: 0, writes: 0, commits: 0 };
        for (const store of stores) {
          const counters = store.counters();
          sum.statements += counters.statements;
          sum.writes += counters.writes;
          sum.commits += counters.commits;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...sum, intents }));
      },
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
}

export function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(listeningPort(server)));
  });
}

/** The TCP port a started hapi server took (its info names a pipe's path otherwise). */
export function hapiPort(server: { readonly info: { readonly port: number | string } }): number {
  const { port } = server.info;
  if (typeof port !== 'number') throw new Error(`The hapi server listens on ${port}, not a TCP port.`);
  return port;
}

export const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * Whether promise hooks are on in this process: with them off, a promise reaction runs with no
 * execution async id (0); an AsyncLocalStorage entered anywhere in the process turns them on.
 */
export function promiseHooksOn(): Promise<boolean> {
  return new Promise((resolve) => {
    void Promise.resolve().then(() => resolve(executionAsyncId() !== 0));
  });
}
