import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** Unique rule names, so the repository can tell a replayed channel dispute from another duplicate. */
export const DISPUTE_INDEXES = {
  channelDispute: 'disputes_channel_dispute_unique',
} as const;

/**
 * Disputes: one row per channel dispute (unique on the channel's id for it), listed per merchant
 * and mode; and the simulator's own record of the disputes it opened, kept beside its order book so
 * every process of a deployment sees the same.
 */
export const disputes: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('disputes', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'disputes_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('payment_intent_id', ID).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.bigInteger('held_amount').nullable();
      table.string('held_currency', 3).nullable();
      table.string('held_from', 16).nullable();
      table.bigInteger('fee_amount').nullable();
      table.string('fee_currency', 3).nullable();
      table.string('reason', 255).nullable();
      // At most 50 keys of 40 characters with values of 5000: well within TEXT on both engines.
      table.text('evidence', 'mediumtext').notNullable();
      table.string('channel', 32).notNullable();
      table.string('channel_dispute_id', 128).notNullable();
      table.bigInteger('due_by').notNullable();
      table.bigInteger('opened_at').notNullable();
      table.bigInteger('closed_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.unique(['channel', 'channel_dispute_id'], { indexName: DISPUTE_INDEXES.channelDispute });
      table.index(['merchant_id', 'mode', 'seq'], 'disputes_list_index');
      table.index(['merchant_id', 'mode', 'payment_intent_id'], 'disputes_intent_index');
    });

    await knex.schema.createTable('simulator_disputes', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'simulator_disputes_id_unique' });
      table.string('order_id', ID).notNullable();
      table.string('reference', 255).notNullable();
      table.string('mode', 4).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('reason', 255).nullable();
      table.text('evidence', 'mediumtext').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.index(['order_id', 'seq'], 'simulator_disputes_order_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('simulator_disputes');
    await knex.schema.dropTable('disputes');
  },
};
