import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import { isDuplicateKeyError, isRetryableTransactionError } from '../sql-errors';

const LOCK_TABLE = 'payments_migration_lock';
const LOCK_NAME = 'migrations';

export interface MigrationLockTiming {
  /** How long a lease lasts without renewal: a migrator that died frees the lock after this. */
  readonly leaseMs: number;
  /** How often the holder renews its lease while it migrates. */
  readonly renewEveryMs: number;
  /** How long a process waits for the lock, while another holds it, before it gives up. */
  readonly waitMs: number;
  /** Pause between two tries of a waiting process. */
  readonly pollMs: number;
}

export const MIGRATION_LOCK_TIMING: MigrationLockTiming = { leaseMs: 30_000, renewEveryMs: 5_000, waitMs: 15 * 60_000, pollMs: 250 };

/** The lock while held: gives it back. */
export interface HeldMigrationLock {
  readonly holder: string;
  release(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The table is created with `IF NOT EXISTS`, so processes starting together on an empty database
 * all succeed (on Galera, DDL runs in total order on every node).
 */
async function ensureLockTable(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} (
       name VARCHAR(64) NOT NULL PRIMARY KEY,
       holder VARCHAR(200) NOT NULL,
       expires_at BIGINT NOT NULL
     )`,
  );
}

/** Another process holds the row (a duplicate key), or took it at the same moment on another node (1213 at certification). */
function isTaken(error: unknown): boolean {
  return isDuplicateKeyError(error) || isRetryableTransactionError(error);
}

/**
 * Takes the migration lock as a row in a table: an insert of the one row with a fixed primary key.
 * Every node of a multi-writer cluster sees that row, where a server-side named lock (GET_LOCK) is
 * granted by each node on its own. The holder renews a lease while it migrates; a holder that died
 * (killed mid-migration, its host lost) stops renewing, and a waiting process takes the lock over
 * once the lease has run out.
 */
export async function acquireMigrationLock(knex: Knex, timing: MigrationLockTiming = MIGRATION_LOCK_TIMING): Promise<HeldMigrationLock> {
  await ensureLockTable(knex);
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  const giveUpAt = Date.now() + timing.waitMs;
  for (;;) {
    try {
      await knex(LOCK_TABLE).insert({ name: LOCK_NAME, holder, expires_at: Date.now() + timing.leaseMs });
      return holdLease(knex, holder, timing);
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    // The holder's lease ran out: it died. The delete is conditional, so of several waiters
    // one removes the row and all of them race for the insert again.
    try {
      const removed = await knex(LOCK_TABLE).where({ name: LOCK_NAME }).andWhere('expires_at', '<', Date.now()).delete();
      if (removed > 0) continue;
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
    }
    if (Date.now() >= giveUpAt) {
      const row = await knex(LOCK_TABLE).where({ name: LOCK_NAME }).first<{ holder: string } | undefined>('holder');
      throw new Error(
        `The migration lock was held by ${row?.holder ?? 'another process'} for over ${Math.round(timing.waitMs / 1000)} s; is a migration stuck?`,
      );
    }
    await sleep(timing.pollMs / 2 + Math.random() * timing.pollMs);
  }
}

function holdLease(knex: Knex, holder: string, timing: MigrationLockTiming): HeldMigrationLock {
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    // A failed renewal is tried again at the next tick; the lease outlasts several ticks.
    renewing = knex(LOCK_TABLE)
      .where({ name: LOCK_NAME, holder })
      .update({ expires_at: Date.now() + timing.leaseMs })
      .catch(() => undefined);
  }, timing.renewEveryMs);
  timer.unref();
  return {
    holder,
    release: async () => {
      clearInterval(timer);
      await renewing;
      await knex(LOCK_TABLE).where({ name: LOCK_NAME, holder }).delete();
    },
  };
}
