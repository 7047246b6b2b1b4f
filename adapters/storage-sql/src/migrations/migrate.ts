import type { Knex } from 'knex';
import { dialectOf } from '../dialect';
import { pendingMigrations } from '../observability';
import { isDuplicateKeyError } from '../sql-errors';
import { acquireMigrationLock } from './migration-lock';
import { InCodeMigrationSource } from './migration-source';

const MIGRATIONS_TABLE = 'knex_migrations';
const LOCK_TABLE = 'knex_migrations_lock';
const LOCKED_RETRY = { attempts: 60, delayMs: 500 } as const;

async function createTableIfMissing(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder) => void): Promise<void> {
  if (await knex.schema.hasTable(name)) return;
  try {
    await knex.schema.createTable(name, build);
  } catch (error) {
    if (!(await knex.schema.hasTable(name))) throw error; // someone else created it meanwhile
  }
}

/**
 * Creates knex's bookkeeping tables the way knex does, but without its race: knex checks and then
 * inserts the lock row, so two processes starting on an empty database can insert two rows and
 * lock migrations for good. A fixed primary key makes the row unique.
 */
async function ensureBookkeepingTables(knex: Knex): Promise<void> {
  await createTableIfMissing(knex, MIGRATIONS_TABLE, (table) => {
    table.increments();
    table.string('name');
    table.integer('batch');
    table.timestamp('migration_time');
  });
  await createTableIfMissing(knex, LOCK_TABLE, (table) => {
    table.increments('index').primary();
    table.integer('is_locked');
  });
  try {
    await knex(LOCK_TABLE).insert({ index: 1, is_locked: 0 });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

function isMigrationLocked(error: unknown): boolean {
  return error instanceof Error && error.name === 'MigrationLocked';
}

async function latestWaitingForOthers(knex: Knex): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await knex.migrate.latest({ migrationSource: new InCodeMigrationSource() });
      return;
    } catch (error) {
      if (!isMigrationLocked(error) || attempt >= LOCKED_RETRY.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOCKED_RETRY.delayMs));
    }
  }
}

/**
 * On MySQL, processes serialise on a lock row every node of a multi-writer cluster sees
 * (migration-lock.ts). DDL commits implicitly, so a process killed mid-migration would leave
 * knex's own lock row set and block every later start: whoever holds our lock knows nobody else
 * is migrating and clears it. A holder that loses the lock (its lease ran out and a waiter took it
 * over) stops at its next statement with MigrationLockLostError. A process that finds nothing
 * pending takes no lock at all, so an everyday restart writes nothing.
 */
async function migrateMysql(knex: Knex): Promise<void> {
  if ((await pendingMigrations(knex)).length === 0) return;
  const lock = await acquireMigrationLock(knex);
  try {
    await lock.guard(async () => {
      await ensureBookkeepingTables(knex);
      await knex(LOCK_TABLE).update({ is_locked: 0 });
      await knex.migrate.latest({ migrationSource: new InCodeMigrationSource() });
    });
  } finally {
    await lock.release();
  }
}

/**
 * Brings the schema up to date; safe to call from several processes starting at once (API and
 * workers): one migrates, the others wait for it and find nothing left to do.
 */
export async function migrateLatest(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'mysql') return migrateMysql(knex);
  // SQLite runs the whole batch, lock included, in one transaction: a crash rolls the lock back.
  await ensureBookkeepingTables(knex);
  await latestWaitingForOthers(knex);
}
