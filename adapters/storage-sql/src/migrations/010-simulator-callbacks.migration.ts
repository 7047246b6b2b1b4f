import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/**
 * The simulator's outbox of callbacks (order outcomes and dispute notices): each remembers
 * whether the service took it, so a refused one is tried again on later ticks (a magic outcome can
 * be reported before the attempt that placed the order has committed), and the Idempotency-Key of
 * the simulate call that caused it, so a retry of that call can be recognised.
 */
export const simulatorCallbacks: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);
    await knex.schema.createTable('simulator_callbacks', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'simulator_callbacks_id_unique' });
      table.string('order_id', ID).notNullable();
      table.string('dispute_id', ID).nullable();
      // Idempotency-Keys are at most 255 characters (IDEMPOTENCY.maxKeyLength).
      table.string('simulation_key', 255).nullable();
      table.text('instruction').nullable();
      table.string('url', 2048).notNullable();
      table.text('body').notNullable();
      table.integer('attempts').notNullable();
      table.bigInteger('retry_at').nullable();
      table.bigInteger('delivered_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.index(['retry_at'], 'simulator_callbacks_retry_index');
      table.index(['order_id', 'simulation_key'], 'simulator_callbacks_order_key_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('simulator_callbacks');
  },
};
