import { randomBytes } from 'node:crypto';
import test from 'ava';
import { createKnex, isDatabaseUnavailableError, pendingMigrations } from '@payments/storage-sql';
import { buildContainer, AppKnex } from '../src/container';
import { ConfigError, loadConfig } from '../src/config';

const base = { PAYMENTS_MASTER_KEY: 'ab'.repeat(32), PAYMENTS_DATABASE_URL: 'sqlite::memory:' };

test('database settings: generous defaults, each configurable, nonsense refused at start', (t) => {
  const defaults = loadConfig(base);
  t.deepEqual(defaults.database, { statementTimeoutMs: 30_000, acquireTimeoutMs: 5_000, wsrepSyncWait: 'auto' });
  t.is(defaults.requestTimeoutMs, 15_000);
  const set = loadConfig({
    ...base,
    PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS: '0',
    PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS: '2000',
    PAYMENTS_DATABASE_WSREP_SYNC_WAIT: '0',
    PAYMENTS_REQUEST_TIMEOUT_MS: '0',
  });
  t.deepEqual(set.database, { statementTimeoutMs: 0, acquireTimeoutMs: 2_000, wsrepSyncWait: 0 });
  t.is(set.requestTimeoutMs, 0);
  t.is(loadConfig({ ...base, PAYMENTS_DATABASE_WSREP_SYNC_WAIT: '15' }).database.wsrepSyncWait, 15);
  for (const [name, value] of [
    ['PAYMENTS_DATABASE_WSREP_SYNC_WAIT', '16'],
    ['PAYMENTS_DATABASE_WSREP_SYNC_WAIT', 'on'],
    ['PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS', '-1'],
    ['PAYMENTS_DATABASE_ACQUIRE_TIMEOUT_MS', '0'],
    // Hapi's socket timeout (2 minutes) must stay the longer one.
    ['PAYMENTS_REQUEST_TIMEOUT_MS', '120000'],
  ] as const)
    t.throws(() => loadConfig({ ...base, [name]: value }), { instanceOf: ConfigError }, `${name}=${value}`);
});

test('MariaDB: a statement timeout too short for any migration statement cuts the service’s statements, never the migrations at start (skipped without PAYMENTS_TEST_DATABASE_URL)', async (t) => {
  const serverUrl = process.env.PAYMENTS_TEST_DATABASE_URL;
  if (!serverUrl) {
    t.pass('no MariaDB to test against');
    return;
  }
  const name = `pt_${randomBytes(8).toString('hex')}`;
  const admin = createKnex(serverUrl);
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    // 1 ms: creating and altering every table of an empty database takes longer than that, statement by statement.
    const config = loadConfig({ ...base, PAYMENTS_DATABASE_URL: url.toString(), PAYMENTS_DATABASE_STATEMENT_TIMEOUT_MS: '1', LOG_LEVEL: 'silent' });
    const app = await buildContainer(config);
    // Read without a limit: on a loaded machine even this read could take the service's 1 ms.
    const reader = createKnex(url.toString(), { statementTimeoutMs: 0 });
    try {
      t.deepEqual(await pendingMigrations(reader), [], 'every migration ran to the end');
      // MariaDB ends a statement past max_statement_time with error 1969. SLEEP is the one
      // exception that can slip through: under load its interrupted wait sometimes answers its
      // row (1, "interrupted") instead of the error (seen on CI). Either answer is the cut; an
      // uncut SLEEP answers 0 after a full second.
      const answer = await app
        .get(AppKnex)
        .raw('SELECT SLEEP(1) AS interrupted')
        .then(
          ([rows]: [Array<{ interrupted: number }>]) => rows[0]?.interrupted,
          (error: Error) => error,
        );
      if (answer instanceof Error) t.true(isDatabaseUnavailableError(answer), answer.message);
      else t.is(answer, 1, 'the statement ran its full second: the timeout did not cut it');
    } finally {
      await reader.destroy();
      await app.close();
    }
  } finally {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
  }
});
