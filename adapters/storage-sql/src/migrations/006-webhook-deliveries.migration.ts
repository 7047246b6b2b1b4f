import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/**
 * Webhook delivery: one delivery per event and endpoint (leased by relay passes through
 * `locked_until`), its attempt log, and the platform's Ed25519 signing keys (private halves sealed).
 */
export const webhookDeliveries: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('webhook_deliveries', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'webhook_deliveries_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('event_id', ID).notNullable();
      table.string('endpoint_id', ID).notNullable();
      table.string('url', 2048).notNullable();
      table.string('status', 16).notNullable();
      table.integer('attempts').notNullable();
      table.integer('schedule_attempts').notNullable();
      table.integer('response_status').nullable();
      table.string('last_error', 500).nullable();
      table.bigInteger('next_retry_at').nullable();
      table.bigInteger('locked_until').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.unique(['event_id', 'endpoint_id'], { indexName: 'webhook_deliveries_event_endpoint_unique' });
      table.index(['status', 'next_retry_at'], 'webhook_deliveries_due_index');
      table.index(['merchant_id', 'mode', 'seq'], 'webhook_deliveries_list_index');
      table.index(['endpoint_id', 'seq'], 'webhook_deliveries_endpoint_index');
    });

    await knex.schema.createTable('webhook_delivery_attempts', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'webhook_delivery_attempts_id_unique' });
      table.string('delivery_id', ID).notNullable();
      table.string('endpoint_id', ID).notNullable();
      table.bigInteger('at').notNullable();
      table.integer('response_status').nullable();
      table.integer('latency_ms').notNullable();
      table.string('error', 500).nullable();
      table.index(['delivery_id', 'seq'], 'webhook_delivery_attempts_delivery_index');
      table.index(['endpoint_id', 'seq'], 'webhook_delivery_attempts_endpoint_index');
    });

    await knex.schema.createTable('platform_keys', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'platform_keys_id_unique' });
      table.string('public_key', 64).notNullable();
      table.text('private_key_sealed').notNullable();
      table.bigInteger('published_at').notNullable();
      table.bigInteger('active_from').notNullable();
      table.bigInteger('created_at').notNullable();
      // 1 on the first key only (rotated keys: NULL), so concurrent first uses create one key.
      table.integer('genesis').nullable().unique({ indexName: 'platform_keys_genesis_unique' });
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('platform_keys');
    await knex.schema.dropTable('webhook_delivery_attempts');
    await knex.schema.dropTable('webhook_deliveries');
  },
};
