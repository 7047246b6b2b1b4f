import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const DASHBOARD_RESOURCE_INDEXES = {
  signingKeysMerchantKey: 'signing_keys_merchant_key_unique',
  payoutDestinationsDefault: 'payout_destinations_default_unique',
} as const;

/**
 * The dashboard's resources: the two merchant-editable settings that had no column, signing keys,
 * payout destinations (account numbers sealed, one default per merchant and mode), webhook
 * endpoints (secrets sealed, deletes kept as tombstones) and the notice outbox for email.
 */
export const dashboardResources: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.alterTable('merchants', (table) => {
      table.string('support_email', 254).nullable();
      table.string('statement_descriptor', 32).nullable();
    });

    await knex.schema.createTable('signing_keys', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'signing_keys_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('algorithm', 16).notNullable();
      table.string('public_key', 64).notNullable();
      table.string('name', 255).nullable();
      table.bigInteger('created_at').notNullable();
      table.unique(['merchant_id', 'public_key'], { indexName: DASHBOARD_RESOURCE_INDEXES.signingKeysMerchantKey });
    });

    await knex.schema.createTable('payout_destinations', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'payout_destinations_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('type', 16).notNullable();
      table.string('currency', 3).notNullable();
      table.string('account_holder', 255).notNullable();
      table.string('bank_code', 32).notNullable();
      table.text('account_number_sealed').notNullable();
      table.string('account_number_last4', 4).notNullable();
      table.string('status', 16).notNullable();
      // 1 on the default, NULL on the others: a unique index then allows one default per
      // merchant and mode (both engines let NULLs repeat in a unique index).
      table.integer('default_marker').nullable();
      table.bigInteger('hold_until').nullable();
      table.bigInteger('created_at').notNullable();
      table.unique(['merchant_id', 'mode', 'default_marker'], { indexName: DASHBOARD_RESOURCE_INDEXES.payoutDestinationsDefault });
      table.index(['merchant_id', 'mode', 'seq'], 'payout_destinations_list_index');
    });

    await knex.schema.createTable('webhook_endpoints', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'webhook_endpoints_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('url', 2048).notNullable();
      table.text('enabled_events').notNullable();
      table.string('description', 500).nullable();
      table.string('api_version', 16).notNullable();
      table.string('status', 16).notNullable();
      table.text('secret_sealed').notNullable();
      table.integer('secret_version').notNullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.bigInteger('deleted_at').nullable();
      table.index(['merchant_id', 'mode', 'seq'], 'webhook_endpoints_list_index');
    });

    await knex.schema.createTable('notices', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'notices_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('kind', 64).notNullable();
      table.string('recipient', 255).notNullable();
      table.text('details').notNullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('sent_at').nullable();
      table.index(['sent_at', 'seq'], 'notices_pending_index');
      table.index(['merchant_id', 'seq'], 'notices_merchant_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('notices');
    await knex.schema.dropTable('webhook_endpoints');
    await knex.schema.dropTable('payout_destinations');
    await knex.schema.dropTable('signing_keys');
    await knex.schema.alterTable('merchants', (table) => {
      table.dropColumn('statement_descriptor');
      table.dropColumn('support_email');
    });
  },
};
