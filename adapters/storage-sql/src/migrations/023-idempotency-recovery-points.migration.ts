import type { Knex } from 'knex';
import { ID_LENGTH as ID } from './table-options';

/**
 * `idempotency_keys.recovery_point`: the object (a refund `re_…`, an attempt `pa_…`, a dispute
 * `dp_…`) that a request calling a channel between transactions bound to its key, in the
 * transaction that made it (docs/idempotency.md, "Recovery points"). A key with one is never
 * forgotten before its retention ends: a retry resumes with that object. NULL for every key before.
 */
export const idempotencyRecoveryPoints: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('idempotency_keys', (table) => {
      table.string('recovery_point', ID).nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('idempotency_keys', (table) => {
      table.dropColumn('recovery_point');
    });
  },
};
