import { createServer as createNetServer, connect, type Server as NetServer, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import Boom from '@hapi/boom';
import { freePort } from '@payments/node-runtime';
import { CoreError, LockBusyError } from '@payments/core';
import { createKnex } from '@payments/storage-sql';
import { toCoreError } from '../src/http/boom-to-core-error';
import { httpStatusOf } from '../src/http/error-envelope';
import { DATABASE_RETRY_AFTER_SECONDS, unavailableOf } from '../src/http/unavailable';
import { createBody, startTestApp, unique, type TestApp, type TestMerchant, type TestResponse } from './helpers/test-app';
import { jsonAt, listAt, textAt } from './helpers/json';

/**
 * A TCP forwarder in front of a real server that the test can cut (every connection dropped, new
 * ones refused) and restore on the same port: a database or Redis outage as the service sees it,
 * without stopping the shared server other suites use. Or freeze: every connection stays open and
 * new ones are accepted, but no byte moves either way until thawed, as a server that hangs.
 */
interface Forwarder {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

async function startForwarder(targetHost: string, targetPort: number): Promise<Forwarder> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let frozen = false;
  const flow = ({ client, upstream }: { client: Socket; upstream: Socket }): void => void client.pipe(upstream).pipe(client);
  const hold = ({ client, upstream }: { client: Socket; upstream: Socket }): void => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  let server: NetServer | undefined;
  const listen = (): Promise<void> =>
    server !== undefined
      ? Promise.resolve()
      : new Promise((resolve, reject) => {
          const s = createNetServer((client) => {
            const upstream = connect(targetPort, targetHost);
            for (const socket of [client, upstream]) {
              sockets.add(socket);
              socket.on('close', () => sockets.delete(socket));
              socket.on('error', () => undefined);
            }
            const pair = { client, upstream };
            pairs.add(pair);
            client.on('close', () => {
              pairs.delete(pair);
              upstream.destroy();
            });
            upstream.on('close', () => client.destroy());
            if (frozen) hold(pair);
            else flow(pair);
          });
          s.once('error', reject);
          s.listen(port, '127.0.0.1', () => resolve());
          server = s;
        });
  const cut = async (): Promise<void> => {
    const s = server;
    server = undefined;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const freeze = (): void => {
    frozen = true;
    for (const pair of pairs) hold(pair);
  };
  const thaw = (): void => {
    if (!frozen) return;
    frozen = false;
    for (const pair of pairs) flow(pair);
  };
  await listen();
  return { port, cut, restore: listen, freeze, thaw, close: cut };
}

const withPort = (url: string, port: number): string => {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
};

/**
 * An outage of `server` (a pass when its url is unset: nothing to test against): the app reaches
 * it through a forwarder the test cuts, and `outage` starts from a merchant and an intent created
 * while it answered; the app and the forwarder close after.
 */
async function outageTest(
  t: ExecutionContext,
  server: { readonly name: string; readonly url: string | undefined; readonly defaultPort: number },
  appOptions: (forwarderPort: number, serverUrl: string) => Parameters<typeof startTestApp>[0],
  outage: (started: { t0: TestApp; forwarder: Forwarder; shop: TestMerchant; intentId: string }) => Promise<void>,
): Promise<void> {
  if (!server.url) {
    t.pass(`no ${server.name} to test against`);
    return;
  }
  const target = new URL(server.url);
  const forwarder = await startForwarder(target.hostname, Number(target.port || server.defaultPort));
  const t0 = await startTestApp(appOptions(forwarder.port, server.url));
  try {
    const shop = await t0.merchant();
    const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique('idem'), payload: createBody() });
    t.is(created.statusCode, 201);
    await outage({ t0, forwarder, shop, intentId: textAt(created.result, 'id') });
  } finally {
    await t0.close();
    await forwarder.close();
  }
}

test('unavailableOf: dependency outages become 503 api_error with Retry-After; bugs and refusals do not', async (t) => {
  // A real driver error: mysql2 against a port nothing listens on.
  const knex = createKnex(`mysql://root@127.0.0.1:${await freePort()}/payments`);
  const refused = await t.throwsAsync(knex.raw('SELECT 1'));
  await knex.destroy();
  const mapped = unavailableOf(refused);
  t.like(mapped, { code: 'api_error', category: 'unavailable', retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  t.is(mapped?.cause, refused, 'the driver error is kept for the log');
  t.false(/127\.0\.0\.1|mysql|ECONNREFUSED/.test(mapped?.message ?? ''), 'the answer names no address or driver');

  // Redis failures arrive as CoreError unavailable already (locks-redis), as do busy locks.
  const busy = new LockBusyError();
  t.is(unavailableOf(busy), busy);
  t.is(unavailableOf(new CoreError('merchant_order_id_taken', 'conflict', 'taken')), undefined);
  t.is(unavailableOf(new Error('a bug')), undefined);
  t.is(unavailableOf(Object.assign(new Error('Duplicate entry'), { errno: 1062, code: 'ER_DUP_ENTRY' })), undefined);
  // A deadlock or a cluster's certification failure that no retry caught (a write of the simulated channel's book): 503, not 500.
  const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' });
  t.like(unavailableOf(deadlock), { code: 'api_error', category: 'unavailable', retryAfterSeconds: 1 });
  t.is(httpStatusOf(toCoreError(deadlock)), 503);

  // What a route that let the driver error through answers: 503, not 500.
  t.is(httpStatusOf(toCoreError(refused)), 503);
  // Hapi's own 503, when a route's request timeout ran out: an outage with Retry-After, not a 500.
  t.like(toCoreError(Boom.serverUnavailable()), { code: 'api_error', category: 'unavailable', retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  t.is(httpStatusOf(toCoreError(new Error('a bug'))), 500);
});

test.serial(
  'database outage (MariaDB behind a cut connection): 503 api_error with Retry-After, readiness 503, then everything answers again (skipped without PAYMENTS_TEST_DATABASE_URL)',
  async (t) => {
    const database = { name: 'MariaDB', url: process.env.PAYMENTS_TEST_DATABASE_URL, defaultPort: 3306 };
    await outageTest(
      t,
      database,
      (port) => ({ databaseUrl: (url) => withPort(url, port) }),
      async ({ t0, forwarder, shop, intentId }) => {
        await forwarder.cut();
        const key = unique('idem');
        const body = createBody();
        for (const [method, url, idempotencyKey, payload] of [
          ['GET', `/v1/payment_intents/${intentId}`, undefined, undefined],
          ['GET', '/v1/payment_intents', undefined, undefined],
          ['POST', '/v1/payment_intents', key, body],
        ] as const) {
          const res = await t0.request({ method, url, key: shop.testKey, ...(idempotencyKey ? { idempotencyKey } : {}), ...(payload ? { payload } : {}) });
          t.is(res.statusCode, 503, `${method} ${url}: ${res.payload}`);
          t.is(res.headers['retry-after'], String(DATABASE_RETRY_AFTER_SECONDS));
          t.like(jsonAt(res.result, 'error'), { code: 'api_error', request_id: res.headers['request-id'] });
          t.false(res.payload.includes(String(forwarder.port)), 'no address in the answer');
        }
        const ready = await t0.server.inject({ method: 'GET', url: '/health/ready' });
        t.is(ready.statusCode, 503);
        t.regex(textAt(JSON.parse(ready.payload), 'error', 'message'), /database unreachable/);

        await forwarder.restore();
        // The failed request's key was released once the database came back (no 60 s of 409s):
        // the client's retry with the same key runs, once.
        let retried = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
        for (let i = 0; i < 40 && retried.statusCode !== 201; i += 1) {
          await new Promise((r) => setTimeout(r, 250));
          retried = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
        }
        t.is(retried.statusCode, 201, retried.payload);
        const replay = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
        t.is(jsonAt(replay.result, 'id'), jsonAt(retried.result, 'id'));
        t.is((await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key: shop.testKey })).statusCode, 200);
        t.is((await t0.server.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200);
      },
    );
  },
);

/** `promise`, or a rejection naming `what` once `ms` passed: a hang fails the test instead of stalling it. */
function answeredWithin<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test.serial(
  'database that hangs (MariaDB behind a frozen connection): every request answers 503 api_error with Retry-After within the request timeout, readiness 503 within its check; once it answers again, a retry of the hung create finds its one effect (skipped without PAYMENTS_TEST_DATABASE_URL)',
  async (t) => {
    const database = { name: 'MariaDB', url: process.env.PAYMENTS_TEST_DATABASE_URL, defaultPort: 3306 };
    const requestTimeoutMs = 1_500;
    // Generous: the request timeout plus a loaded machine's slack; without the timeout nothing answers until the thaw.
    const boundMs = 6_000;
    await outageTest(
      t,
      database,
      (port) => ({
        databaseUrl: (url) => withPort(url, port),
        env: { PAYMENTS_REQUEST_TIMEOUT_MS: String(requestTimeoutMs), PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS: '1000' },
      }),
      async ({ t0, forwarder, shop, intentId }) => {
        const key = unique('idem');
        const body = createBody();
        const create = (): Promise<TestResponse> =>
          t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
        forwarder.freeze();
        try {
          // The create first and alone: it takes the pool's idle connection and its statement hangs there.
          const hung = [await answeredWithin('POST /v1/payment_intents', boundMs, create())];
          for (const url of [`/v1/payment_intents/${intentId}`, '/v1/payment_intents'])
            hung.push(await answeredWithin(`GET ${url}`, boundMs, t0.request({ method: 'GET', url, key: shop.testKey })));
          for (const res of hung) {
            t.is(res.statusCode, 503, res.payload);
            t.is(res.headers['retry-after'], String(DATABASE_RETRY_AFTER_SECONDS));
            t.like(jsonAt(res.result, 'error'), { code: 'api_error', request_id: res.headers['request-id'] });
          }
          const asked = Date.now();
          const ready = await answeredWithin('GET /health/ready', boundMs, t0.server.inject({ method: 'GET', url: '/health/ready' }));
          t.is(ready.statusCode, 503);
          t.true(Date.now() - asked < 4_000, `readiness answered after ${Date.now() - asked} ms`);
          t.regex(textAt(JSON.parse(ready.payload), 'error', 'message'), /database unreachable/);
        } finally {
          // Also after a failure: the app's pool can only close once its statements are answered.
          forwarder.thaw();
        }
        // The hung create goes on and commits (or its claim is released): the same key never makes
        // a second intent. Meanwhile the retry may meet 409 idempotency_key_in_use.
        let retried = await create();
        for (let i = 0; i < 40 && retried.statusCode !== 201; i += 1) {
          t.true([409, 503].includes(retried.statusCode), retried.payload);
          await new Promise((r) => setTimeout(r, 250));
          retried = await create();
        }
        t.is(retried.statusCode, 201, retried.payload);
        t.is(jsonAt((await create()).result, 'id'), jsonAt(retried.result, 'id'));
        const listed = await t0.request({ method: 'GET', url: '/v1/payment_intents?limit=100', key: shop.testKey });
        const orders = listAt(listed.result, 'data').filter((intent) => jsonAt(intent, 'merchant_order_id') === body.merchant_order_id);
        t.is(orders.length, 1, 'one intent for the key');
        t.is((await t0.server.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200);
      },
    );
  },
);

test.serial(
  'Redis outage (behind a cut connection): lock-taking writes answer 503 api_error with Retry-After, readiness 503, then the client reconnects (skipped without PAYMENTS_TEST_REDIS_URL)',
  async (t) => {
    const redis = { name: 'Redis', url: process.env.PAYMENTS_TEST_REDIS_URL, defaultPort: 6379 };
    await outageTest(
      t,
      redis,
      (port, url) => ({ env: { PAYMENTS_REDIS_URL: withPort(url, port) } }),
      async ({ t0, forwarder, shop, intentId }) => {
        await forwarder.cut();
        const key = unique('idem');
        // Placing an attempt takes the intent's lock in Redis.
        const attempt = await t0.request({
          method: 'POST',
          url: `/v1/payment_intents/${intentId}/attempts`,
          key: shop.testKey,
          idempotencyKey: key,
          payload: { payment_method: 'promptpay' },
        });
        t.is(attempt.statusCode, 503, attempt.payload);
        t.truthy(attempt.headers['retry-after']);
        t.like(jsonAt(attempt.result, 'error'), { code: 'api_error' });
        // A read needs no Redis: it keeps working.
        t.is((await t0.request({ method: 'GET', url: `/v1/payment_intents/${intentId}`, key: shop.testKey })).statusCode, 200);
        const ready = await t0.server.inject({ method: 'GET', url: '/health/ready' });
        t.is(ready.statusCode, 503);
        t.regex(textAt(JSON.parse(ready.payload), 'error', 'message'), /redis unreachable/);

        await forwarder.restore();
        // The client reconnects on its own (capped backoff, at most 2 s apart).
        let retried = attempt;
        const deadline = Date.now() + 10_000;
        while (retried.statusCode !== 201 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          retried = await t0.request({
            method: 'POST',
            url: `/v1/payment_intents/${intentId}/attempts`,
            key: shop.testKey,
            idempotencyKey: key,
            payload: { payment_method: 'promptpay' },
          });
        }
        t.is(retried.statusCode, 201, retried.payload);
        t.is((await t0.server.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200);
      },
    );
  },
);
