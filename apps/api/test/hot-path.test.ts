import test from 'ava';
import type { Knex } from 'knex';
import { AppKnex } from '../src/container';
import { textAt } from './helpers/json';
import { createBody, startTestApp, unique, type TestApp } from './helpers/test-app';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(async () => t0?.close());

/** The SQL the service's knex runs while `fn` runs, in order (BEGIN; and COMMIT; included); tests here run one at a time for it. */
async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const knex = t0.app.get<Knex>(AppKnex);
  const seen: string[] = [];
  const record = (query: { sql: string }): void => {
    seen.push(query.sql);
  };
  knex.on('query', record);
  try {
    await fn();
  } finally {
    knex.removeListener('query', record);
  }
  return seen;
}

const isWrite = (sql: string): boolean => /^\s*(insert|update|delete|set statement)/i.test(sql);

test.serial('a create commits once: the key claim, the intent, its checkout session and the answer are one transaction', async (t) => {
  const shop = await t0.merchant();
  // The account's first request pins its API version; the create below is an ordinary one.
  await t0.request({ method: 'GET', url: '/v1/payment_intents', key: shop.testKey });
  let status = 0;
  const statements = await statementsDuring(async () => {
    status = (await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique(), payload: createBody() })).statusCode;
  });
  t.is(status, 201);
  t.is(statements.filter((sql) => /^commit/i.test(sql)).length, 1, statements.join('\n'));
  const begin = statements.findIndex((sql) => /^begin/i.test(sql));
  const commit = statements.findIndex((sql) => /^commit/i.test(sql));
  const writes = statements.map((sql, index) => ({ sql, index })).filter(({ sql }) => isWrite(sql));
  t.true(writes.length >= 4, 'claim, intent, checkout session, answer');
  for (const write of writes) t.true(write.index > begin && write.index < commit, `outside the transaction: ${write.sql}`);
});

test.serial('authentication reads the key and its merchant in one statement: a get is two statements, a replay one read more', async (t) => {
  const shop = await t0.merchant();
  const key = unique();
  const body = createBody();
  const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body });
  const id = textAt(created.result, 'id');
  const get = await statementsDuring(() => t0.request({ method: 'GET', url: `/v1/payment_intents/${id}`, key: shop.testKey }));
  t.is(get.length, 2, get.join('\n'));
  let replayed: string | undefined;
  const replay = await statementsDuring(async () => {
    replayed = (await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: key, payload: body })).payload;
  });
  t.is(replayed, created.payload);
  t.is(replay.length, 2, replay.join('\n'));
  t.false(replay.some(isWrite));
});
