import test from 'ava';
import type { StoragePorts } from '@payments/core';
import { createInMemoryStorage } from '@payments/in-memory';
import { createSqlStorage, createTestDatabase } from '@payments/storage-sql';

export type { StoragePorts };

export interface StorageHarness {
  readonly storage: StoragePorts;
  destroy(): Promise<void>;
}

export interface StorageAdapter {
  /** Prefix of every test title: `in-memory`, `sqlite` or `mysql`. */
  readonly name: string;
  /** A new, empty storage of its own. */
  create(): Promise<StorageHarness>;
}

export const inMemoryStorageAdapter: StorageAdapter = {
  name: 'in-memory',
  create: async () => ({ storage: createInMemoryStorage(), destroy: async () => undefined }),
};

/**
 * SQLite by default; the MySQL / MariaDB server named by PAYMENTS_TEST_DATABASE_URL when set, so
 * the same test files cover both databases.
 */
export const sqlStorageAdapter: StorageAdapter = {
  name: process.env['PAYMENTS_TEST_DATABASE_URL'] ? 'mysql' : 'sqlite',
  create: async () => {
    const database = await createTestDatabase();
    return { storage: createSqlStorage(database.knex), destroy: () => database.destroy() };
  },
};

export const storageAdapters: readonly StorageAdapter[] = [inMemoryStorageAdapter, sqlStorageAdapter];

/**
 * One storage shared by the tests of a suite (a database per suite keeps MariaDB runs fast);
 * tests stay independent by using merchants of their own. Call at the top of a contract.
 */
export function sharedStorage(adapter: StorageAdapter): () => StoragePorts {
  let harness: StorageHarness | undefined;
  test.before(async () => {
    harness = await adapter.create();
  });
  test.after.always(async () => {
    await harness?.destroy();
  });
  return () => {
    if (!harness) throw new Error(`The ${adapter.name} storage was not created.`);
    return harness.storage;
  };
}

/** Runs `fn` on a storage of its own, for the few rules that look across every merchant. */
export async function withOwnStorage<T>(adapter: StorageAdapter, fn: (storage: StoragePorts) => Promise<T>): Promise<T> {
  const harness = await adapter.create();
  try {
    return await fn(harness.storage);
  } finally {
    await harness.destroy();
  }
}
