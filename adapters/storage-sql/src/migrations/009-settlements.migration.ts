import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const SETTLEMENT_INDEXES = {
  scheduledPeriod: 'settlements_scheduled_period_unique',
} as const;

/**
 * Settlements: one row per payout of a merchant's available funds, and on each payment
 * intent the settlement that covers it (NULL until one does), so a payment is settled once.
 */
export const settlements: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('settlements', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'settlements_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.integer('payments').notNullable();
      table.bigInteger('period_start').notNullable();
      table.bigInteger('period_end').notNullable();
      table.string('trigger', 16).notNullable();
      // The period end of a scheduled batch, NULL for manual ones: the unique index then allows
      // one batch per merchant, mode and period (both engines let NULLs repeat in a unique index).
      table.bigInteger('scheduled_period_end').nullable();
      table.string('destination_id', ID).nullable();
      table.string('failure_reason', 255).nullable();
      table.bigInteger('paid_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.unique(['merchant_id', 'mode', 'scheduled_period_end'], { indexName: SETTLEMENT_INDEXES.scheduledPeriod });
      table.index(['merchant_id', 'mode', 'seq'], 'settlements_list_index');
      table.index(['status', 'seq'], 'settlements_unfinished_index');
    });

    await knex.schema.alterTable('payment_intents', (table) => {
      table.string('settlement_id', ID).nullable();
      table.index(['settlement_id'], 'payment_intents_settlement_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropIndex(['settlement_id'], 'payment_intents_settlement_index');
      table.dropColumn('settlement_id');
    });
    await knex.schema.dropTable('settlements');
  },
};
