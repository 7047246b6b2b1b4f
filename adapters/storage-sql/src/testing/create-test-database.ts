import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { createKnex, type KnexOptions } from '../create-knex';
import { parseDatabaseUrl } from '../database-url';
import { migrateLatest } from '../migrations/migrate';
import { VerifyLedger } from '@payments/core';
import { KnexContext } from '../knex-context';
import { KnexLedger } from '../repositories/knex-ledger.repository';

/** A migrated, empty database of its own for one test file or one child process. */
export interface TestDatabase {
  /** What a child process is given as PAYMENTS_DATABASE_URL to reach this database. */
  readonly url: string;
  readonly knex: Knex;
  /**
   * Checks the ledger's invariants over everything the test wrote, closes the pool and drops the
   * database (or deletes the SQLite file); throws, after dropping, when an invariant is broken, so
   * every test run is also a `ledger verify` of its data.
   */
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * A MySQL / MariaDB server to create the database on, e.g. `mysql://root@127.0.0.1:3306/test`
   * (the path names a database the user may connect to). Default: env
   * `PAYMENTS_TEST_DATABASE_URL`; when neither is set, a SQLite file in a temporary directory.
   */
  readonly serverUrl?: string;
  /** MySQL / MariaDB: sessions that refuse a write like a cluster's certification would (see `KnexOptions`). */
  readonly firstCommitterWins?: boolean;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function createMysqlTestDatabase(serverUrl: string, options: KnexOptions): Promise<TestDatabase> {
  // Only [a-z0-9_] in the name, so it can be interpolated into DDL safely.
  const name = `pt_${randomBytes(8).toString('hex')}`;
  const admin = createKnex(serverUrl);
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.destroy();
  }
  const url = withDatabase(serverUrl, name);
  const knex = createKnex(url, options);
  const destroy = async (): Promise<void> => {
    await knex.destroy();
    const dropper = createKnex(serverUrl);
    try {
      await dropper.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    } finally {
      await dropper.destroy();
    }
  };
  return migrated({ url, knex, destroy });
}

async function createSqliteTestDatabase(): Promise<TestDatabase> {
  const directory = await mkdtemp(join(tmpdir(), 'payments-test-'));
  const url = `sqlite:${join(directory, 'db.sqlite')}`;
  const knex = createKnex(url);
  const destroy = async (): Promise<void> => {
    await knex.destroy();
    await rm(directory, { recursive: true, force: true });
  };
  return migrated({ url, knex, destroy });
}

/**
 * A fresh database for tests: on the MySQL / MariaDB server named by `serverUrl` or
 * `PAYMENTS_TEST_DATABASE_URL` (a new `pt_<random>` database), else a temporary SQLite file.
 * Test support only; the service itself reads its configuration once at start.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? process.env['PAYMENTS_TEST_DATABASE_URL'];
  if (serverUrl === undefined || serverUrl === '') return createSqliteTestDatabase();
  if (parseDatabaseUrl(serverUrl).dialect !== 'mysql') {
    throw new Error('PAYMENTS_TEST_DATABASE_URL must be a mysql:// or mariadb:// URL of a server tests may create databases on.');
  }
  return createMysqlTestDatabase(serverUrl, { firstCommitterWins: options.firstCommitterWins ?? false });
}

/** Runs the migrations on a fresh test database; one that fails to migrate is removed again. */
async function migrated(database: TestDatabase): Promise<TestDatabase> {
  try {
    await migrateLatest(database.knex);
  } catch (error) {
    await database.destroy();
    throw error;
  }
  return { ...database, destroy: () => verifiedDestroy(database) };
}

async function verifiedDestroy(database: TestDatabase): Promise<void> {
  let report;
  // A pool of its own: the test may have closed `database.knex` already (child processes used the URL).
  const verifier = createKnex(database.url);
  try {
    report = await new VerifyLedger({ ledger: new KnexLedger(new KnexContext(verifier)) }).execute({ limit: 20 });
  } finally {
    await verifier.destroy();
    await database.destroy();
  }
  if (!report.ok) throw new Error(`The test left the ledger broken: ${JSON.stringify(report.breaks)}`);
}
