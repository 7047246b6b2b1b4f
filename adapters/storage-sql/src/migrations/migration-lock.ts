import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import { dialectOf } from '../dialect';
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

/** The lock while held: guards the statements run under it, and gives it back. */
export interface HeldMigrationLock {
  readonly holder: string;
  /**
   * Runs `work` with every statement of this knex instance checked first: once a renewal found the
   * lock taken over, the next statement (a ROLLBACK aside) throws MigrationLockLostError instead
   * of running, so `work` stops there. Only for work that has the knex instance to itself, as
   * migrating at start has.
   */
  guard<T>(work: () => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

/** The holder's lease was taken over (it ran out by the database's clock): it must stop migrating. */
export class MigrationLockLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationLockLost';
  }
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

/**
 * The database's clock as milliseconds since the epoch: every lease is written and compared with
 * it, never with a process's own clock, so a process whose clock is off takes no live lease over.
 * Numbers on both, never a datetime text (SQLite's CURRENT_TIMESTAMP is whole seconds, in its
 * own text format). SQLite's `now` is the same for every use within one statement; MySQL's
 * UTC_TIMESTAMP does not depend on the session's time zone.
 */
function databaseNowMs(knex: Knex): string {
  return dialectOf(knex) === 'mysql'
    ? "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)"
    : "(CAST(strftime('%s', 'now') AS INTEGER) * 1000 + CAST(substr(strftime('%f', 'now'), 4) AS INTEGER))";
}

/** `now + leaseMs` by the database's clock. */
function leaseEnd(knex: Knex, leaseMs: number): Knex.Raw {
  return knex.raw(`${databaseNowMs(knex)} + ?`, [leaseMs]);
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
 * once the lease has run out. Leases are written and compared by the database's clock (on a
 * cluster, the clock of the node the statement runs on), so a waiter's own clock never decides.
 * A holder whose renewal finds the row no longer its own stops (see `guard`).
 */
export async function acquireMigrationLock(knex: Knex, timing: MigrationLockTiming = MIGRATION_LOCK_TIMING): Promise<HeldMigrationLock> {
  await ensureLockTable(knex);
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  // Elapsed time only, on the process's monotonic clock.
  const giveUpAt = performance.now() + timing.waitMs;
  for (;;) {
    try {
      await knex(LOCK_TABLE).insert({ name: LOCK_NAME, holder, expires_at: leaseEnd(knex, timing.leaseMs) });
      return holdLease(knex, holder, timing);
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    // The holder's lease ran out: it died. The delete is conditional, so of several waiters
    // one removes the row and all of them race for the insert again.
    try {
      const removed = await knex(LOCK_TABLE)
        .where({ name: LOCK_NAME })
        .andWhere('expires_at', '<', knex.raw(databaseNowMs(knex)))
        .delete();
      if (removed > 0) continue;
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
    }
    if (performance.now() >= giveUpAt) {
      const row = await knex(LOCK_TABLE).where({ name: LOCK_NAME }).first<{ holder: string } | undefined>('holder');
      throw new Error(
        `The migration lock was held by ${row?.holder ?? 'another process'} for over ${Math.round(timing.waitMs / 1000)} s; is a migration stuck?`,
      );
    }
    await sleep(timing.pollMs / 2 + Math.random() * timing.pollMs);
  }
}

/** Transaction control that must still run once the lock is lost: undoing is always safe. */
const ROLLBACK = /^\s*rollback\b/i;
/** Marks the lock's own look-up of who took it over, which the guard lets through. */
const OWN_STATEMENT = Object.freeze({ migrationLock: 'own statement' });

function holdLease(knex: Knex, holder: string, timing: MigrationLockTiming): HeldMigrationLock {
  let lost: MigrationLockLostError | undefined;
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = async (): Promise<void> => {
    const renewed = await knex(LOCK_TABLE)
      .where({ name: LOCK_NAME, holder })
      .update({ expires_at: leaseEnd(knex, timing.leaseMs) });
    if (renewed > 0 || lost) return;
    clearInterval(timer);
    const lostTo = (by: string): MigrationLockLostError =>
      new MigrationLockLostError(
        `The migration lock of ${holder} was taken over${by} (its lease ran out by the database's clock before a renewal): ` +
          'this process stops migrating; the new holder runs what is left.',
      );
    // Lost from now on; then the message names the new holder, if there is one to name.
    lost = lostTo('');
    const row = await knex(LOCK_TABLE)
      .where({ name: LOCK_NAME })
      .first<{ holder: string } | undefined>('holder')
      .queryContext(OWN_STATEMENT)
      .catch(() => undefined);
    if (row) lost = lostTo(` by ${row.holder}`);
  };
  const timer = setInterval(() => {
    // A failed renewal is tried again at the next tick; the lease outlasts several ticks.
    renewing = renew().catch(() => undefined);
  }, timing.renewEveryMs);
  timer.unref();
  const check = (query: { sql?: unknown; queryContext?: unknown }): void => {
    if (!lost || query.queryContext === OWN_STATEMENT || (typeof query.sql === 'string' && ROLLBACK.test(query.sql))) return;
    throw lost;
  };
  return {
    holder,
    guard: async (work) => {
      // knex emits `query` synchronously before it sends a statement (transactions' included), so a throw here stops it.
      knex.on('query', check);
      try {
        const result = await work();
        if (lost) throw lost;
        return result;
      } finally {
        knex.off('query', check);
      }
    },
    release: async () => {
      clearInterval(timer);
      await renewing;
      await knex(LOCK_TABLE).where({ name: LOCK_NAME, holder }).delete();
    },
  };
}
