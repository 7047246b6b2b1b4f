import type { Knex } from 'knex';

/**
 * When the dispute reconciler may next ask a channel about an open dispute: without it, the
 * oldest open disputes would fill every batch and the rest would never be asked.
 */
export const disputeChecks: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('disputes', (table) => {
      table.bigInteger('next_check_at').nullable();
      table.index(['status', 'updated_at'], 'disputes_reconcile_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('disputes', (table) => {
      table.dropIndex(['status', 'updated_at'], 'disputes_reconcile_index');
      table.dropColumn('next_check_at');
    });
  },
};
