import test from 'ava';
import type { Knex } from 'knex';
import { dialectOf } from '@payments/storage-sql';
import { AppKnex } from '../src/container';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';
import { listAt, textAt, type JsonObject } from './helpers/json';

async function tableNames(knex: Knex): Promise<string[]> {
  const sqlite = dialectOf(knex) === 'sqlite';
  const result: unknown = await knex.raw(
    sqlite
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
  );
  // better-sqlite3 answers the rows; mysql2 [rows, fields].
  return listAt(sqlite ? result : listAt(result, 0)).map((row) => textAt(row, 'name'));
}

/** The columns of an idempotency key's row these tests read. */
interface StoredAnswer {
  readonly state: string;
  readonly response_body: string | null;
}

/** The tables (of the whole database) with a row whose text holds `needle`. */
async function tablesHolding(knex: Knex, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of await tableNames(knex)) {
    const rows = (await knex(table).select('*')) as unknown[];
    if (rows.some((row) => JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : value)).includes(needle)))
      found.push(table);
  }
  return found;
}

async function createIntent(t0: TestApp, testKey: string, idempotencyKey: string, body: JsonObject) {
  return t0.request({ method: 'POST', url: '/v1/payment_intents', key: testKey, idempotencyKey, payload: body });
}

test('the checkout token is nowhere in the database, while the create answer replays byte for byte', async (t) => {
  const t0 = await startTestApp();
  try {
    const shop = await t0.merchant();
    const key = unique('idem');
    const body = createBody();
    const created = await createIntent(t0, shop.testKey, key, body);
    t.is(created.statusCode, 201);
    const checkoutUrl = textAt(created.result, 'checkout_url');
    const token = new URL(checkoutUrl).pathname.split('/').pop()!;
    t.is(Buffer.from(token, 'base64url').length, 32);

    const knex = t0.app.get<Knex>(AppKnex);
    const stored = await knex('idempotency_keys').where({ idem_key: key }).first<StoredAnswer>();
    t.is(stored.state, 'completed', 'the answer is stored for replay');
    t.false(String(stored.response_body).includes(token));
    t.deepEqual(await tablesHolding(knex, token), [], 'no table holds the token in clear');

    const replay = await createIntent(t0, shop.testKey, key, body);
    t.is(replay.statusCode, 201);
    t.is(replay.headers['idempotent-replayed'], 'true');
    t.is(replay.payload, created.payload, 'the replay is the first answer, byte for byte');
  } finally {
    await t0.close();
  }
});

test('a stored refusal replays byte for byte too, its request_id included', async (t) => {
  const t0 = await startTestApp();
  try {
    const shop = await t0.merchant();
    const body = createBody();
    t.is((await createIntent(t0, shop.testKey, unique('idem'), body)).statusCode, 201);
    const key = unique('idem');
    const refused = await createIntent(t0, shop.testKey, key, body);
    t.is(refused.statusCode, 409);
    const replay = await createIntent(t0, shop.testKey, key, body);
    t.is(replay.headers['idempotent-replayed'], 'true');
    t.is(replay.payload, refused.payload);
    const stored = await t0.app.get<Knex>(AppKnex)('idempotency_keys').where({ idem_key: key }).first<StoredAnswer>();
    t.false(String(stored.response_body).includes('merchant_order_id'), 'the stored refusal is sealed');
  } finally {
    await t0.close();
  }
});
