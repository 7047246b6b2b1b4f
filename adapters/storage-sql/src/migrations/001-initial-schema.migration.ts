import type { Knex } from 'knex';
import { binaryCollation as binaryCollationFor, ID_LENGTH } from './table-options';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const INDEXES = {
  usersEmail: 'users_email_unique',
  intentsId: 'payment_intents_id_unique',
  intentsMerchantOrder: 'payment_intents_merchant_order_unique',
  intentsList: 'payment_intents_list_index',
  intentsExpiry: 'payment_intents_expiry_index',
  eventsId: 'events_id_unique',
  eventsList: 'events_list_index',
} as const;

const ID = ID_LENGTH;

/**
 * The first schema. Timestamps are BIGINT epoch milliseconds and money BIGINT minor units, so
 * neither driver converts them; JSON is TEXT because the two databases type JSON differently.
 */
export const initialSchema: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const binaryCollation = binaryCollationFor(knex);

    await knex.schema.createTable('merchants', (table) => {
      binaryCollation(table);
      table.string('id', ID).primary();
      table.string('name', 255).notNullable();
      table.string('email', 255).notNullable();
      table.boolean('live_enabled').notNullable();
      table.string('settlement_currency', 3).notNullable();
      table.string('settlement_schedule', 16).notNullable();
      table.integer('settlement_delay_days').notNullable();
      table.string('api_version', 16).nullable();
      table.bigInteger('created_at').notNullable();
    });

    await knex.schema.createTable('users', (table) => {
      binaryCollation(table);
      table.string('id', ID).primary();
      table.string('merchant_id', ID).notNullable().index('users_merchant_index');
      table.string('email', 255).notNullable().unique({ indexName: INDEXES.usersEmail });
      table.string('name', 255).nullable();
      table.string('role', 16).notNullable();
      table.string('status', 16).notNullable();
      table.string('password_hash', 512).notNullable();
      table.bigInteger('created_at').notNullable();
    });

    await knex.schema.createTable('api_keys', (table) => {
      binaryCollation(table);
      table.string('id', ID).primary();
      table.string('merchant_id', ID).notNullable().index('api_keys_merchant_index');
      table.string('mode', 4).notNullable();
      table.string('prefix', 32).notNullable().index('api_keys_prefix_index');
      table.string('secret_digest', 128).notNullable();
      table.string('name', 255).nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('revoked_at').nullable();
    });

    await knex.schema.createTable('payment_intents', (table) => {
      binaryCollation(table);
      // The list order: ids carry no order, and created_at ties within a millisecond.
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: INDEXES.intentsId });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('merchant_order_id', 255).notNullable();
      table.string('status', 32).notNullable();
      table.string('payment_method', 32).nullable();
      table.string('channel_preference', 32).nullable();
      table.string('description', 1000).nullable();
      table.string('customer', 255).nullable();
      table.string('return_url', 2048).nullable();
      table.text('metadata', 'mediumtext').notNullable();
      table.bigInteger('fee_amount').nullable();
      table.string('fee_currency', 3).nullable();
      table.bigInteger('net_amount').nullable();
      table.string('net_currency', 3).nullable();
      table.text('fx').nullable();
      table.text('next_action').nullable();
      table.bigInteger('available_at').nullable();
      table.bigInteger('expires_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.integer('version').notNullable();
      table.unique(['merchant_id', 'mode', 'merchant_order_id'], { indexName: INDEXES.intentsMerchantOrder });
      table.index(['merchant_id', 'mode', 'seq'], INDEXES.intentsList);
      table.index(['status', 'expires_at'], INDEXES.intentsExpiry);
    });

    await knex.schema.createTable('checkout_sessions', (table) => {
      binaryCollation(table);
      table.string('token_digest', 128).primary();
      table.string('payment_intent_id', ID).notNullable().index('checkout_sessions_intent_index');
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.bigInteger('expires_at').notNullable();
      table.bigInteger('created_at').notNullable();
    });

    await knex.schema.createTable('events', (table) => {
      binaryCollation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: INDEXES.eventsId });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('type', 64).notNullable();
      table.bigInteger('created_at').notNullable();
      table.text('data').notNullable();
      table.index(['merchant_id', 'mode', 'seq'], INDEXES.eventsList);
    });

    await knex.schema.createTable('idempotency_keys', (table) => {
      binaryCollation(table);
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('idem_key', 255).notNullable();
      table.string('fingerprint', 255).notNullable();
      table.string('token', 128).notNullable();
      table.string('state', 16).notNullable();
      table.bigInteger('locked_until').nullable();
      table.integer('response_status').nullable();
      table.text('response_body', 'mediumtext').nullable();
      table.bigInteger('created_at').notNullable();
      // Retention is chosen per claim, so each key records when it may be forgotten.
      table.bigInteger('expires_at').notNullable().index('idempotency_keys_expires_index');
      table.primary(['merchant_id', 'mode', 'idem_key']);
    });
  },

  async down(knex: Knex): Promise<void> {
    for (const table of ['idempotency_keys', 'events', 'checkout_sessions', 'payment_intents', 'api_keys', 'users', 'merchants']) {
      await knex.schema.dropTableIfExists(table);
    }
  },
};
