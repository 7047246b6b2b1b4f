import test from 'ava';
import { createKnex } from '@payments/storage-sql';
import { createBody, startTestApp, unique } from './helpers/test-app';
import { textAt } from './helpers/json';

const onMysql = Boolean(process.env.PAYMENTS_TEST_DATABASE_URL);

test(`a change the database keeps giving up for contention is 503 api_error with Retry-After; nothing is kept, and the retry with the same key runs${onMysql ? '' : ' (skipped without PAYMENTS_TEST_DATABASE_URL)'}`, async (t) => {
  if (!onMysql) {
    t.pass('no MariaDB to test against');
    return;
  }
  let databaseUrl = '';
  const t0 = await startTestApp({ databaseUrl: (url) => (databaseUrl = url) });
  const knex = createKnex(databaseUrl);
  try {
    const shop = await t0.merchant();
    const created = await t0.request({ method: 'POST', url: '/v1/payment_intents', key: shop.testKey, idempotencyKey: unique('idem'), payload: createBody() });
    const id = textAt(created.result, 'id');
    // Every write of an intent fails as a Galera certification failure or a deadlock does (1213),
    // however often the unit of work runs it again.
    await knex.raw(
      'CREATE TRIGGER contended BEFORE UPDATE ON payment_intents FOR EACH ROW ' +
        "SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'Deadlock found when trying to get lock; try restarting transaction'",
    );
    const key = unique('idem');
    const cancel = () => t0.request({ method: 'POST', url: `/v1/payment_intents/${id}/cancel`, key: shop.testKey, idempotencyKey: key });

    const refused = await cancel();
    t.is(refused.statusCode, 503);
    t.is(refused.headers['retry-after'], '1');
    t.like(refused.result, { error: { code: 'api_error' } });
    t.false(JSON.stringify(refused.result).includes('Deadlock'), 'nothing of the driver reaches the caller');

    await knex.raw('DROP TRIGGER contended');
    const retried = await cancel();
    t.is(retried.statusCode, 200);
    t.is(retried.headers['idempotent-replayed'], undefined, 'the 503 was not stored as the answer');
    t.like(retried.result, { id, status: 'canceled' });
  } finally {
    await knex.destroy();
    await t0.close();
  }
});
