import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Server } from '@hapi/hapi';
import type { Knex } from 'knex';
import { AppKnex, buildContainer, createServer, loadConfig, type AppContainer } from '@payments/api';
import { ApiKeyRepository, CreateMerchant, MerchantRepository } from '@payments/core';
import { ScryptPasswordHasher } from '@payments/node-runtime';
import { hapiPort, listen, promiseHooksOn } from './floor-control';
import { failStart, serveUntilStopped, type ServiceReady } from './ipc';
import { StatementRecorder } from './statements';

/** Cheap password hashing: it is only used to create the bench merchant. */
const hasher = (): ScryptPasswordHasher => new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 });

/**
 * The bench's window into the service process, on a port of its own (never the API's): the
 * statement counters (`GET /counters`) and the statement capture of the next requests
 * (`POST /capture/start`, `POST /capture/stop` answers them as JSON). The no-I/O server's
 * statements are counted too, to show it runs none.
 */
function controlServer(recorder: StatementRecorder, noIoRecorder: StatementRecorder): HttpServer {
  return createHttpServer((req, res) => {
    const reply = (status: number, body?: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/counters') return reply(200, { api: recorder.counters(), noIo: noIoRecorder.counters() });
    if (req.method === 'POST' && req.url === '/capture/start') {
      recorder.startCapture();
      return reply(200, {});
    }
    if (req.method === 'POST' && req.url === '/capture/stop') return reply(200, recorder.stopCapture());
    return reply(404);
  });
}

/** `base` with some methods replaced; every other one is answered by `base`, its prototype. */
function overriding<T extends object>(base: T, overrides: Partial<T>): T {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- what `overrides` leaves out, the prototype `base` answers
  return Object.assign(Object.create(base) as T, overrides);
}

/**
 * The "Hapi stack, no I/O" server: the very same createServer (plugins, error mapping, request
 * log, metrics, API-key auth scheme, joi validation) on a second container whose API-key and
 * merchant lookups are memoised after their first answer, so an authenticated request whose
 * route does no I/O (GET /v1/fx/quotes on the bundled rates) never reaches the database.
 */
async function noIoServer(): Promise<{ app: AppContainer; server: Server; recorder: StatementRecorder }> {
  const app = await buildContainer(loadConfig(), { passwordHasher: hasher() });
  const recorder = new StatementRecorder(app.get<Knex>(AppKnex));
  const keys = app.get<ApiKeyRepository>(ApiKeyRepository);
  const merchants = app.get<MerchantRepository>(MerchantRepository);
  const keysByPrefix = new Map<string, ReturnType<ApiKeyRepository['findByPrefix']>>();
  const merchantsById = new Map<string, ReturnType<MerchantRepository['findById']>>();
  const memoKeys = overriding(keys, {
    findByPrefix: (prefix: string) => keysByPrefix.get(prefix) ?? keysByPrefix.set(prefix, keys.findByPrefix(prefix)).get(prefix)!,
  });
  const memoMerchants = overriding(merchants, {
    findById: (id: string) => merchantsById.get(id) ?? merchantsById.set(id, merchants.findById(id)).get(id)!,
  });
  app.container.rebindSync<ApiKeyRepository>(ApiKeyRepository).toConstantValue(memoKeys);
  app.container.rebindSync<MerchantRepository>(MerchantRepository).toConstantValue(memoMerchants);
  const server = await createServer(app);
  await server.start();
  return { app, server, recorder };
}

/**
 * The real service, put together the way apps/api's main does (configuration from the
 * environment the bench prepared, the production container and server), listening on a real
 * socket; beside it the bench's control port and the no-I/O server.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildContainer(config, { passwordHasher: hasher() });
  const closers: Array<() => Promise<void>> = [() => app.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const recorder = new StatementRecorder(app.get<Knex>(AppKnex));
    const server = await createServer(app);
    await server.start();
    closers.push(() => server.stop({ timeout: 5_000 }));
    const noIo = await noIoServer();
    closers.push(
      () => noIo.app.close(),
      () => noIo.server.stop({ timeout: 5_000 }),
    );
    const control = controlServer(recorder, noIo.recorder);
    const controlPort = await listen(control);
    closers.push(() => new Promise<void>((resolve) => control.close(() => resolve())));
    const suffix = randomBytes(6).toString('hex');
    const created = await app.get(CreateMerchant).execute({
      name: `Bench ${suffix}`,
      email: `bench-${suffix}@example.com`,
      password: 'correct horse battery staple',
    });
    const ready: ServiceReady = {
      port: hapiPort(server),
      controlPort,
      noIoPort: hapiPort(noIo.server),
      merchantId: created.merchant.id,
      testKey: created.testApiKey.secret,
      promiseHooks: await promiseHooksOn(),
    };
    serveUntilStopped(ready, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

main().catch(failStart);
