import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH } from './table-options';

/**
 * Background items that failed: one row per job and item, so a pass skips the item until its next
 * try and an operator can list and retry them. Written outside the item's transaction.
 */
export const jobItemFailures: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('job_item_failures', (table) => {
      binaryCollation(knex)(table);
      table.string('job', 64).notNullable();
      table.string('item_id', ID_LENGTH).notNullable();
      table.string('lane', 16).notNullable();
      table.string('error_code', 64).notNullable();
      table.string('error_message', 300).nullable();
      table.integer('attempts').notNullable();
      table.bigInteger('first_failed_at').notNullable();
      table.bigInteger('last_failed_at').notNullable();
      table.bigInteger('next_try_at').notNullable();
      table.primary(['job', 'item_id']);
      table.index(['item_id'], 'job_item_failures_item_index');
      table.index(['last_failed_at'], 'job_item_failures_recent_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('job_item_failures');
  },
};
