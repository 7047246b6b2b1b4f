import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/**
 * Refunds: one row per refund, listed per merchant and mode and summed per intent (the intent's
 * `amount_refunded` is kept beside it, so reading an intent stays one row); and the simulator's own
 * record of the refunds it took, beside its order book so every process of a deployment sees the
 * same.
 */
export const refunds: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('refunds', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'refunds_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('payment_intent_id', ID).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('reason', 32).nullable();
      table.string('failure_code', 32).nullable();
      table.text('metadata').notNullable();
      table.bigInteger('debit_amount').notNullable();
      table.string('debit_currency', 3).notNullable();
      table.string('debited_from', 16).notNullable();
      table.string('channel', 32).notNullable();
      table.string('channel_order_id', 128).notNullable();
      table.string('channel_refund_id', 128).nullable();
      table.bigInteger('next_check_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.bigInteger('succeeded_at').nullable();
      table.index(['merchant_id', 'mode', 'seq'], 'refunds_list_index');
      table.index(['merchant_id', 'mode', 'payment_intent_id'], 'refunds_intent_index');
      table.index(['mode', 'status', 'created_at'], 'refunds_check_index');
    });

    await knex.schema.alterTable('payment_intents', (table) => {
      table.bigInteger('amount_refunded').notNullable().defaultTo(0);
    });

    await knex.schema.createTable('simulator_refunds', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'simulator_refunds_id_unique' });
      table.string('reference', 255).notNullable().unique({ indexName: 'simulator_refunds_reference_unique' });
      table.string('order_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('failure_code', 32).nullable();
      table.string('callback_url', 2048).notNullable();
      // When a refund with no instruction is reported (the tick after it was placed).
      table.bigInteger('due_at').nullable();
      table.bigInteger('lease_until').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.index(['due_at'], 'simulator_refunds_due_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('simulator_refunds');
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropColumn('amount_refunded');
    });
    await knex.schema.dropTable('refunds');
  },
};
