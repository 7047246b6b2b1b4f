import test from 'ava';
import { randomBytes } from 'node:crypto';
import { AesGcmSecretBox } from '@payments/node-runtime';
import { createTestDatabase, KnexChannelCredentialStore } from '@payments/storage-sql';

/**
 * The sealed channel credential store (migration 028) on the test database: SQLite by default,
 * MariaDB with PAYMENTS_TEST_DATABASE_URL.
 */
const name = process.env['PAYMENTS_TEST_DATABASE_URL'] ? 'mysql' : 'sqlite';
const SECRET = 'sk_test_51SecretThatMustNotBeStored';

test(`${name}: credentials are one set per channel, merchant and mode, sealed at rest, replaced and removed`, async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.destroy());
  const store = new KnexChannelCredentialStore(database.knex, new AesGcmSecretBox(randomBytes(32)));
  const at = new Date(1_790_000_000_000);
  await store.put({ channel: 'stripe', merchantId: 'mch_b', mode: 'test', secrets: { secret_key: SECRET }, updatedAt: at });
  await store.put({ channel: 'stripe', merchantId: 'mch_a', mode: 'test', secrets: { secret_key: 'sk_test_other' }, updatedAt: at });
  await store.put({ channel: 'stripe', merchantId: 'mch_a', mode: 'live', secrets: { secret_key: 'sk_live_other' }, updatedAt: at });

  t.deepEqual(await store.find('stripe', 'mch_b', 'test'), {
    channel: 'stripe',
    merchantId: 'mch_b',
    mode: 'test',
    secrets: { secret_key: SECRET },
    updatedAt: at,
  });
  t.is(await store.find('stripe', 'mch_b', 'live'), undefined);
  t.is(await store.find('omise', 'mch_b', 'test'), undefined);
  t.deepEqual(
    (await store.list('stripe', 'test')).map((credentials) => credentials.merchantId),
    ['mch_a', 'mch_b'],
  );

  const rows = await database.knex('channel_credentials').select('secrets_sealed');
  t.is(rows.length, 3);
  t.false(JSON.stringify(rows).includes('sk_'), 'a secret is stored in plaintext');

  await store.put({
    channel: 'stripe',
    merchantId: 'mch_b',
    mode: 'test',
    secrets: { secret_key: 'sk_test_replaced' },
    updatedAt: new Date(at.getTime() + 1000),
  });
  t.deepEqual((await store.find('stripe', 'mch_b', 'test'))?.secrets, { secret_key: 'sk_test_replaced' });
  t.is((await store.list('stripe', 'test')).length, 2);

  t.true(await store.remove('stripe', 'mch_b', 'test'));
  t.false(await store.remove('stripe', 'mch_b', 'test'));
  t.is(await store.find('stripe', 'mch_b', 'test'), undefined);
});

test(`${name}: a store under another master key cannot open the credentials`, async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.destroy());
  await new KnexChannelCredentialStore(database.knex, new AesGcmSecretBox(randomBytes(32))).put({
    channel: 'stripe',
    merchantId: 'mch_a',
    mode: 'test',
    secrets: { secret_key: SECRET },
    updatedAt: new Date(),
  });
  const stranger = new KnexChannelCredentialStore(database.knex, new AesGcmSecretBox(randomBytes(32)));
  await t.throwsAsync(() => stranger.find('stripe', 'mch_a', 'test'));
});
