import type { Knex } from 'knex';
import { InCodeMigrationSource } from './migration-source';

const LOCK_WAIT = { attempts: 60, delayMs: 500 } as const;

function isMigrationLocked(error: unknown): boolean {
  return error instanceof Error && error.name === 'MigrationLocked';
}

/**
 * Brings the schema up to date. Several processes may start at once (API and workers); knex lets
 * only one migrate and fails the others with MigrationLocked, so those wait for it and re-check.
 */
export async function migrateLatest(knex: Knex): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await knex.migrate.latest({ migrationSource: new InCodeMigrationSource() });
      return;
    } catch (error) {
      if (!isMigrationLocked(error) || attempt >= LOCK_WAIT.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT.delayMs));
    }
  }
}
