import type { Knex } from 'knex';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const SETTLEMENT_PART_INDEXES = {
  scheduledPart: 'settlements_scheduled_part_unique',
} as const;

const OLD_SCHEDULED_PERIOD_UNIQUE = 'settlements_scheduled_period_unique';

/**
 * A scheduled batch whose payments sum past 2^53 − 1 minor units is paid as several settlements
 * (parts 1, 2 … of the period), each an exact amount. The one-batch-per-period rule becomes one
 * part number per merchant, mode and period end; batches made before this migration are part 1.
 * Manual settlements keep NULL in both columns (both engines let NULLs repeat in a unique index).
 */
export const settlementParts: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('settlements', (table) => {
      table.integer('scheduled_part').nullable();
    });
    await knex('settlements').whereNotNull('scheduled_period_end').update({ scheduled_part: 1 });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropUnique(['merchant_id', 'mode', 'scheduled_period_end'], OLD_SCHEDULED_PERIOD_UNIQUE);
      table.unique(['merchant_id', 'mode', 'scheduled_period_end', 'scheduled_part'], { indexName: SETTLEMENT_PART_INDEXES.scheduledPart });
    });
  },

  async down(knex: Knex): Promise<void> {
    // Only part 1 of each period fits the old rule; later parts lose their period end to it.
    await knex('settlements').where('scheduled_part', '>', 1).update({ scheduled_period_end: null });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropUnique(['merchant_id', 'mode', 'scheduled_period_end', 'scheduled_part'], SETTLEMENT_PART_INDEXES.scheduledPart);
      table.unique(['merchant_id', 'mode', 'scheduled_period_end'], { indexName: OLD_SCHEDULED_PERIOD_UNIQUE });
    });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropColumn('scheduled_part');
    });
  },
};
