import test from 'ava';
import { freePort } from '@payments/node-runtime';
import { connectRedis, disconnectRedis } from '@payments/locks-redis';
import { createKnex } from '@payments/storage-sql';
import { AppConfig, AppMetrics, type AppContainer } from '../src/container';
import { createLogger } from '../src/logger';
import type { ServiceMetrics } from '../src/metrics';
import { Readiness } from '../src/readiness';
import { capturedLogger, flushLogs as flush } from './helpers/captured-logger';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { apiObjectAt, objectAt, textAt, type JsonObject } from './helpers/json';

test('the shared redaction list censors secrets wherever they sit; idempotency keys stay', async (t) => {
  const log = capturedLogger();
  const secrets = ['sk_test_abc', 'cookie-value', 'hunter2', 'whsec_1', 'tok_checkout', '1234567890', '123456', 'Bearer xyz'];
  log.logger.info(
    {
      headers: { authorization: 'Bearer xyz', cookie: 'session=cookie-value', 'idempotency-key': 'idem-1', 'x-api-key': 'sk_test_abc' },
      req: { headers: { 'set-cookie': 'cookie-value' } },
      password: 'hunter2',
      user: { password: 'hunter2', otp: '123456', token: 'tok_checkout' },
      destination: { account_number: '1234567890' },
      endpoint: { secret: 'whsec_1' },
      err: { config: { headers: { Authorization: 'Bearer xyz' } } },
      body: { code: 'fine' },
    },
    'secret-bearing',
  );
  log.logger.flush();
  await flush();
  const text = log.text();
  for (const secret of secrets) t.false(text.includes(secret), `${secret} leaked: ${text}`);
  t.true(text.includes('idem-1'), 'the idempotency key is a label, not a secret');
  t.true(text.includes('[redacted]'));
});

test.serial('request lines: one per request, the Request-Id of the answer, the route template, no key or token', async (t) => {
  const log = capturedLogger();
  const t0 = await startTestApp({ logger: log.logger, env: { LOG_LEVEL: 'info' } });
  try {
    const shop = await t0.merchant();
    const key = unique('idem');
    const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: createBody() });
    t.is(created.statusCode, 201);
    const intent = apiObjectAt(created.result);
    const token = new URL(textAt(intent, 'checkout_url')).pathname.split('/').pop()!;
    const status = await t0.server.inject({ method: 'GET', url: `/checkout/sessions/${token}/status?secret=shh` });
    const fetched = await t0.request({ method: 'GET', url: `/v1/payment_intents/${intent.id}`, key: shop.testKey });
    const refused = await t0.request({ method: 'GET', url: '/v1/payment_intents', key: 'sk_test_wrongwrongwrong' });
    t.is(refused.statusCode, 401);
    log.logger.flush();
    await flush();

    const requests = log.lines().filter((line) => line.msg === 'request');
    const byId = new Map(requests.map((line): [unknown, JsonObject] => [line.request_id, line]));
    for (const [res, route, method] of [
      [created, '/v1/payment_intents', 'POST'],
      [status, '/checkout/sessions/{token}/status', 'GET'],
      [fetched, '/v1/payment_intents/{id}', 'GET'],
      [refused, '/v1/payment_intents', 'GET'],
    ] as const) {
      const line = byId.get(res.headers['request-id']);
      t.truthy(line, `a line for ${method} ${route}`);
      t.like(line, { method, route, res: { status: res.statusCode } });
      t.is(typeof line!.responseTime, 'number');
    }
    const text = log.text();
    for (const secret of [shop.testKey, 'sk_test_wrongwrongwrong', token, intent.id, 'shh']) t.false(text.includes(secret), `${secret} in the logs`);
  } finally {
    await t0.close();
  }
});

async function scrape(metrics: ServiceMetrics): Promise<string> {
  const address = await metrics.listen({ host: '127.0.0.1', port: await freePort() }, createLogger('silent'));
  const res = await fetch(`http://127.0.0.1:${address!.port}/metrics`);
  return res.text();
}

/** The value of one series, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test.serial('metrics port: request histogram by route template and status, idempotency replays, default metrics', async (t) => {
  const t0 = await startTestApp();
  try {
    const metrics = t0.app.get<ServiceMetrics>(AppMetrics);
    const shop = await t0.merchant();
    const key = unique('idem');
    const body = createBody();
    const created = 'payments_http_request_duration_seconds_count{route="/v1/payment_intents",method="POST",status="201"}';
    const replays = 'payments_idempotency_replays_total{route="/v1/payment_intents"}';
    const before = await scrape(metrics);
    t.is(sample(before, created), undefined);
    await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
    const replay = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
    t.is(replay.headers['idempotent-replayed'], 'true');
    await t0.request({ method: 'GET', url: '/v1/payment_intents/pi_missing', key: shop.testKey });
    const after = await scrape(metrics);
    t.is(sample(after, created), 2);
    t.is(sample(after, replays), 1);
    t.is(sample(after, 'payments_http_request_duration_seconds_count{route="/v1/payment_intents/{id}",method="GET",status="404"}'), 1);
    t.true(after.includes('payments_process_cpu_seconds_total'), 'process default metrics');
    t.false(after.includes(shop.testKey));
    t.false(after.includes('pi_missing'), 'ids never become labels');
  } finally {
    await t0.close();
  }
});

function readyOf(t0: TestApp) {
  return t0.server.inject({ method: 'GET', url: '/health/ready' });
}

test.serial('health: live and ready answer 200 when all is well; ready is 503 while a migration is pending', async (t) => {
  const t0 = await startTestApp();
  try {
    for (const url of ['/health', '/health/live']) {
      const res = await t0.server.inject({ method: 'GET', url });
      t.is(res.statusCode, 200);
      t.deepEqual(JSON.parse(res.payload), { status: 'ok' });
    }
    const ready = await readyOf(t0);
    t.is(ready.statusCode, 200);
    const expected = process.env.PAYMENTS_TEST_REDIS_URL ? 'ok' : 'not_configured';
    t.deepEqual(JSON.parse(ready.payload), { status: 'ready', checks: { database: 'ok', migrations: 'ok', redis: expected } });

    // Undo the record of the last migration: the code now knows one the database has not run.
    const knex = createKnex(databaseUrlOf(t0.app));
    try {
      const [last] = await knex<{ id: number; name: string }>('knex_migrations').orderBy('id', 'desc').limit(1);
      await knex('knex_migrations').where({ id: last.id }).delete();
      const pending = await readyOf(t0);
      t.is(pending.statusCode, 503);
      t.is(pending.headers['retry-after'], '5');
      const error = objectAt(JSON.parse(pending.payload), 'error');
      t.like(error, { code: 'api_error', request_id: pending.headers['request-id'] });
      t.regex(textAt(error, 'message'), /migrations pending/);
      t.is((await t0.server.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
      await knex('knex_migrations').insert(last);
      t.is((await readyOf(t0)).statusCode, 200);
    } finally {
      await knex.destroy();
    }
  } finally {
    await t0.close();
  }
});

test.serial('health: ready is 503 once the database is unreachable; live stays 200', async (t) => {
  const t0 = await startTestApp();
  try {
    // Closing the container destroys its pool: every query fails from now on, like a lost database.
    await t0.app.close();
    const res = await readyOf(t0);
    t.is(res.statusCode, 503);
    t.truthy(res.headers['retry-after']);
    const error = objectAt(JSON.parse(res.payload), 'error');
    t.is(error.code, 'api_error');
    t.regex(textAt(error, 'message'), /database unreachable/);
    t.false(res.payload.includes('sqlite') || res.payload.includes('mysql'), 'no connection string in the answer');
    t.is((await t0.server.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
  } finally {
    await t0.close();
  }
});

function databaseUrlOf(app: AppContainer): string {
  return app.get<{ databaseUrl: string }>(AppConfig).databaseUrl;
}

test('readiness: a MySQL URL to a closed port is unreachable, and says nothing of the URL', async (t) => {
  const knex = createKnex(`mysql://payments:s3cret@127.0.0.1:${await freePort()}/payments`);
  try {
    const report = await new Readiness(knex, undefined).check();
    t.deepEqual(report, { ready: false, checks: { database: 'unreachable', migrations: 'unreachable', redis: 'not_configured' } });
  } finally {
    await knex.destroy();
  }
});

test('readiness: Redis configured but gone is unreachable (skipped without PAYMENTS_TEST_REDIS_URL)', async (t) => {
  const url = process.env.PAYMENTS_TEST_REDIS_URL;
  if (!url) {
    t.pass('no Redis to test against');
    return;
  }
  const t0 = await startTestApp();
  const redis = await connectRedis(url);
  const knex = createKnex(databaseUrlOf(t0.app));
  try {
    t.like(await new Readiness(knex, redis).check(), { ready: true, checks: { redis: 'ok' } });
    await disconnectRedis(redis);
    t.like(await new Readiness(knex, redis).check(), { ready: false, checks: { database: 'ok', migrations: 'ok', redis: 'unreachable' } });
  } finally {
    await knex.destroy();
    await t0.close();
  }
});

test.serial('a request failed by the database logs the cause without the values the statement was given', async (t) => {
  const log = capturedLogger();
  const t0 = await startTestApp({ logger: log.logger, env: { LOG_LEVEL: 'info' } });
  const knex = createKnex(databaseUrlOf(t0.app));
  try {
    const shop = await t0.merchant();
    // The insert of the intent now fails on a missing column, after the description was bound.
    await knex.schema.alterTable('payment_intents', (table) => table.renameColumn('description', 'description_moved'));
    const secretLooking = 'sk_live_boundValue0123456789abcdef';
    const failed = await t0.request({
      method: 'POST',
      url: '/v1/payment_intents',
      key: shop.testKey,
      idempotencyKey: unique('idem'),
      payload: createBody({ description: secretLooking }),
    });
    t.is(failed.statusCode, 500);
    log.logger.flush();
    await flush();
    const cause = log.lines().find((line) => line.msg === 'request failed');
    t.truthy(cause?.err, 'the 5xx is logged with its cause');
    t.regex(JSON.stringify(cause), /payment_intents/, 'the cause still names the statement');
    t.false(log.text().includes(secretLooking), log.text());
  } finally {
    await knex.destroy();
    await t0.close();
  }
});
