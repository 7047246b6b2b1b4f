import { readFileSync } from 'node:fs';
import test from 'ava';
import { objectAt, textAt } from '@payments/api/dist/test/helpers/json';
import { adminCli } from './helpers/admin-cli';

const { admin, database, remove } = adminCli('channel');
test.after.always(remove);

const SECRET_KEY = 'sk_test_51AbCdEfGhIjKlMnOpQrStUv9z8y';
const WEBHOOK_SECRET = 'whsec_TopSecretSigningKey0123456789';

test.before(() => {
  const migrated = admin('migrate');
  if (migrated.code !== 0) throw new Error(migrated.stderr);
});

let merchants = 0;
function merchant(): string {
  merchants += 1;
  const created = admin('merchant', 'create', '--name', 'Thai Shop', '--email', `owner${merchants}@shop.example`, '--password', 'correct horse battery staple');
  if (created.code !== 0) throw new Error(created.stderr);
  return textAt(objectAt(JSON.parse(created.stdout), 'merchant'), 'id');
}

test.serial('channel set stores the keys sealed, show masks them, unset removes them; no secret is ever printed', (t) => {
  const id = merchant();
  const setArgs = ['channel', 'set', 'stripe', '--merchant', id, '--mode', 'test', '--secret-key', SECRET_KEY, '--webhook-secret', WEBHOOK_SECRET];
  const set = admin(...setArgs, '--billing-email', 'payments@shop.example');
  t.is(set.code, 0, set.stderr);
  const shown = admin('channel', 'show', 'stripe', '--merchant', id, '--mode', 'test');
  t.is(shown.code, 0, shown.stderr);
  t.like(JSON.parse(shown.stdout), {
    channel_credentials: { channel: 'stripe', merchant: id, mode: 'test', settings: { secret_key: 'sk_test_…9z8y', webhook_secret: 'whsec_…6789' } },
  });
  for (const output of [set.stdout, set.stderr, shown.stdout, shown.stderr]) {
    t.false(output.includes(SECRET_KEY) || output.includes(WEBHOOK_SECRET), 'a secret was printed');
  }
  const file = readFileSync(database);
  t.is(file.indexOf(SECRET_KEY), -1, 'the secret key is stored in plaintext');
  t.is(file.indexOf(WEBHOOK_SECRET), -1, 'the webhook secret is stored in plaintext');

  const unset = admin('channel', 'unset', 'stripe', '--merchant', id, '--mode', 'test');
  t.like(JSON.parse(unset.stdout), { channel_credentials: { removed: true } });
  t.is(admin('channel', 'show', 'stripe', '--merchant', id, '--mode', 'test').code, 1);
});

test.serial('a live key is refused for test mode, and the refusal does not echo it', (t) => {
  const id = merchant();
  const live = 'sk_live_51AbCdEfGhIjKlMnOpQrStUv9z8y';
  const result = admin(
    'channel',
    'set',
    'stripe',
    '--merchant',
    id,
    '--mode',
    'test',
    '--secret-key',
    live,
    '--webhook-secret',
    WEBHOOK_SECRET,
    '--billing-email',
    'a@b.example',
  );
  t.is(result.code, 2);
  t.regex(result.stderr, /--secret-key is not a test-mode/);
  t.false(result.stderr.includes(live));
  t.is(admin('channel', 'set', 'nope', '--merchant', id, '--mode', 'test').code, 2);
});

test.serial('channel set omise: a test secret key (and optional public key) sealed and masked; a live key is refused for test mode', (t) => {
  const id = merchant();
  const secret = 'skey_test_5xAbCdEfGhIjKlMnOpQ9z8y';
  const set = admin('channel', 'set', 'omise', '--merchant', id, '--mode', 'test', '--secret-key', secret, '--public-key', 'pkey_test_5xAbCdEfGhIjKlM1234');
  t.is(set.code, 0, set.stderr);
  const shown = admin('channel', 'show', 'omise', '--merchant', id, '--mode', 'test');
  t.like(JSON.parse(shown.stdout), { channel_credentials: { channel: 'omise', settings: { secret_key: 'skey_test_…9z8y', public_key: 'pkey_test_…1234' } } });
  for (const output of [set.stdout, set.stderr, shown.stdout, shown.stderr]) t.false(output.includes(secret), 'a secret was printed');
  t.is(readFileSync(database).indexOf(secret), -1, 'the secret key is stored in plaintext');
  const live = 'skey_live_5xAbCdEfGhIjKlMnOpQ9z8y';
  const refused = admin('channel', 'set', 'omise', '--merchant', id, '--mode', 'test', '--secret-key', live);
  t.is(refused.code, 2);
  t.false(refused.stderr.includes(live));
});
