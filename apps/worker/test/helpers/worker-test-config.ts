import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '@payments/api';
import { createTestDatabase, type TestDatabase } from '@payments/storage-sql';

export interface WorkerTestConfig {
  readonly config: Config;
  readonly database: TestDatabase;
  /** Drops the database and the data directory. */
  readonly remove: () => Promise<void>;
}

/**
 * A worker's configuration on a database and data directory of its own: SQLite, or a fresh
 * MariaDB database when PAYMENTS_TEST_DATABASE_URL is set, and Redis when PAYMENTS_TEST_REDIS_URL
 * is (under a prefix of its own). `env` adds or overrides variables.
 */
export async function workerTestConfig(name: string, env: Record<string, string> = {}): Promise<WorkerTestConfig> {
  const dir = mkdtempSync(join(tmpdir(), `payments-worker-${name}-`));
  const database = await createTestDatabase();
  const config = loadConfig({
    PAYMENTS_DATABASE_URL: database.url,
    ...(process.env.PAYMENTS_TEST_REDIS_URL ? { PAYMENTS_REDIS_URL: process.env.PAYMENTS_TEST_REDIS_URL } : {}),
    PAYMENTS_REDIS_PREFIX: `test:${randomBytes(6).toString('hex')}:`,
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYMENTS_DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  return {
    config,
    database,
    remove: async () => {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
