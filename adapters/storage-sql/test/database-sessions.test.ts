import test from 'ava';
import { createKnex, DEFAULT_STATEMENT_TIMEOUT_MS, mysqlServerSessionStatements, type MysqlServerFacts } from '../src/create-knex';
import { databaseNodeState, databaseNodeStateOf } from '../src/observability';
import { isDatabaseNodeNotReadyError, isDatabaseUnavailableError, isRetryableTransactionError } from '../src/sql-errors';
import { createTestDatabase } from '../src/testing/create-test-database';
import { mysqlError, onMysql } from './test-support';

const mariadb = (wsrepOn: boolean | undefined): MysqlServerFacts => ({ version: '10.11.6-MariaDB-0+deb12u1', wsrepOn });
const mysql = (wsrepOn: boolean | undefined): MysqlServerFacts => ({ version: '8.0.36', wsrepOn });

test('the statement timeout is set in each flavour’s words: MariaDB in seconds, MySQL in ms; 0 sets no limit', (t) => {
  t.deepEqual(mysqlServerSessionStatements(mariadb(false), {}), [`SET SESSION max_statement_time = ${DEFAULT_STATEMENT_TIMEOUT_MS / 1000}`]);
  t.deepEqual(mysqlServerSessionStatements(mysql(undefined), {}), [`SET SESSION MAX_EXECUTION_TIME = ${DEFAULT_STATEMENT_TIMEOUT_MS}`]);
  t.deepEqual(mysqlServerSessionStatements(mariadb(false), { statementTimeoutMs: 1500 }), ['SET SESSION max_statement_time = 1.5']);
  t.deepEqual(mysqlServerSessionStatements(mysql(undefined), { statementTimeoutMs: 1500 }), ['SET SESSION MAX_EXECUTION_TIME = 1500']);
  // Off is said out loud, so a limit the server sets for everyone cannot cut a migration either.
  t.deepEqual(mysqlServerSessionStatements(mariadb(false), { statementTimeoutMs: 0 }), ['SET SESSION max_statement_time = 0']);
  t.deepEqual(mysqlServerSessionStatements(mysql(undefined), { statementTimeoutMs: 0 }), ['SET SESSION MAX_EXECUTION_TIME = 0']);
});

test('wsrep_sync_wait is set on a Galera node only: 1 by default, the configured value otherwise; never without wsrep', (t) => {
  const syncWait = (server: MysqlServerFacts, wsrepSyncWait?: 'auto' | number): string[] =>
    mysqlServerSessionStatements(server, wsrepSyncWait === undefined ? {} : { wsrepSyncWait }).filter((statement) => statement.includes('wsrep'));
  t.deepEqual(syncWait(mariadb(true)), ['SET SESSION wsrep_sync_wait = 1']);
  t.deepEqual(syncWait(mariadb(true), 'auto'), ['SET SESSION wsrep_sync_wait = 1']);
  t.deepEqual(syncWait(mariadb(true), 3), ['SET SESSION wsrep_sync_wait = 3']);
  t.deepEqual(syncWait(mariadb(true), 0), ['SET SESSION wsrep_sync_wait = 0']);
  // Percona XtraDB Cluster: a MySQL flavour with wsrep.
  t.deepEqual(syncWait(mysql(true)), ['SET SESSION wsrep_sync_wait = 1']);
  // Plain MariaDB (wsrep compiled in, off) and MySQL (no such variable): untouched, whatever is configured.
  for (const server of [mariadb(false), mariadb(undefined), mysql(undefined)])
    for (const wanted of [undefined, 'auto', 0, 7] as const)
      t.deepEqual(syncWait(server, wanted), [], `${server.version} ${String(server.wsrepOn)} ${String(wanted)}`);
});

test('readiness of a database node: a Galera node must be Synced and ready; a server without wsrep is ok whatever its status says', (t) => {
  const on = new Map([['wsrep_on', 'ON']]);
  const status = (comment: string, ready: string): Map<string, string> =>
    new Map([
      ['wsrep_local_state_comment', comment],
      ['wsrep_ready', ready],
    ]);
  t.is(databaseNodeStateOf(on, status('Synced', 'ON')), 'ok');
  for (const comment of ['Joining', 'Waiting on SST', 'Joined', 'Donor/Desynced', 'Initialized'])
    t.is(databaseNodeStateOf(on, status(comment, 'ON')), 'not_synced', comment);
  t.is(databaseNodeStateOf(on, status('Synced', 'OFF')), 'not_synced');
  t.is(databaseNodeStateOf(on, new Map()), 'not_synced', 'no status at all');
  // Plain MariaDB reports wsrep_ready OFF: that says nothing about a server that is not a node.
  t.is(databaseNodeStateOf(new Map([['wsrep_on', 'OFF']]), status('', 'OFF')), 'ok');
  t.is(databaseNodeStateOf(new Map(), new Map()), 'ok');
});

test('a statement cut by the statement timeout is an outage (503), not a retryable conflict; a node outside the primary component is not ready', (t) => {
  for (const error of [
    mysqlError(1969, 'ER_STATEMENT_TIMEOUT', 'Query execution was interrupted (max_statement_time exceeded)'),
    mysqlError(3024, 'ER_QUERY_TIMEOUT', 'Query execution was interrupted, maximum statement execution time exceeded'),
  ]) {
    t.true(isDatabaseUnavailableError(error), error.message);
    t.false(isRetryableTransactionError(error), error.message);
  }
  t.true(isDatabaseNodeNotReadyError(mysqlError(1047, 'ER_UNKNOWN_COM_ERROR', 'WSREP has not yet prepared node for application use')));
  t.false(isDatabaseNodeNotReadyError(mysqlError(1053, 'ER_SERVER_SHUTDOWN')));
});

test('SQLite: no session statement to set, and its node is always ready', async (t) => {
  const knex = createKnex('sqlite::memory:', { statementTimeoutMs: 1 });
  try {
    t.is(await databaseNodeState(knex), 'ok');
    t.deepEqual(await knex.raw('select 1 as one'), [{ one: 1 }]);
  } finally {
    await knex.destroy();
  }
});

if (onMysql) {
  test('MariaDB without wsrep: sessions get the statement timeout and nothing else changes (wsrep_sync_wait as the server has it, READ COMMITTED, UTC)', async (t) => {
    const database = await createTestDatabase();
    try {
      const [[session]] = await database.knex.raw<[[Record<string, unknown>]]>(
        'SELECT @@SESSION.max_statement_time AS timeout, @@SESSION.wsrep_sync_wait AS syncWait, @@GLOBAL.wsrep_sync_wait AS serverSyncWait, @@SESSION.tx_isolation AS isolation, @@SESSION.time_zone AS zone, @@GLOBAL.wsrep_on AS wsrepOn',
      );
      t.is(Number(session?.timeout), DEFAULT_STATEMENT_TIMEOUT_MS / 1000);
      t.is(Number(session?.wsrepOn), 0, 'the shared test server is no Galera node');
      t.is(session?.syncWait, session?.serverSyncWait);
      t.like(session, { isolation: 'READ-COMMITTED', zone: '+00:00' });
      t.is(await databaseNodeState(database.knex), 'ok');
    } finally {
      await database.destroy();
    }
  });

  test('MariaDB: a statement past the timeout is cut (an outage), one within it runs to the end; 0 runs anything to the end', async (t) => {
    const database = await createTestDatabase();
    const limited = createKnex(database.url, { statementTimeoutMs: 300 });
    const unlimited = createKnex(database.url, { statementTimeoutMs: 0 });
    try {
      const asked = Date.now();
      const cut = await t.throwsAsync(limited.raw('SELECT SLEEP(5)'));
      t.true(Date.now() - asked < 4_000, 'cut by the server, not after the whole sleep');
      t.true(isDatabaseUnavailableError(cut), cut.message);
      t.deepEqual((await limited.raw<[Array<{ done: number }>]>('SELECT SLEEP(0.05) AS done'))[0], [{ done: 0 }]);
      t.deepEqual((await unlimited.raw<[Array<{ done: number }>]>('SELECT SLEEP(0.6) AS done'))[0], [{ done: 0 }]);
    } finally {
      await limited.destroy();
      await unlimited.destroy();
      await database.destroy();
    }
  });

  test('MariaDB: a query that cannot get a pooled connection in time fails as an outage after the acquire timeout, not after a minute', async (t) => {
    const database = await createTestDatabase();
    // 2 s, not less: on a loaded machine opening the ten connections below may take a few hundred ms each.
    const knex = createKnex(database.url, { acquireTimeoutMs: 2_000 });
    // Every one of the pool's 10 connections held by an open transaction.
    const held = await Promise.all(Array.from({ length: 10 }, () => knex.transaction()));
    try {
      const asked = Date.now();
      const error = await t.throwsAsync(knex.raw('SELECT 1'));
      t.true(Date.now() - asked < 15_000, `failed after ${Date.now() - asked} ms`);
      t.is(error.name, 'KnexTimeoutError');
      t.true(isDatabaseUnavailableError(error));
    } finally {
      await Promise.all(held.map((trx) => trx.rollback()));
      await knex.destroy();
      await database.destroy();
    }
  });
}
