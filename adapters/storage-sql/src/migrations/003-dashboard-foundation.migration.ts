import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** The second factor on users, and the audit trail of dashboard writes. */
export const dashboardFoundation: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('users', (table) => {
      table.text('mfa_secret').nullable();
      table.bigInteger('mfa_last_step').nullable();
    });
    await knex.schema.createTable('audit_log', (table) => {
      binaryCollation(knex)(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: 'audit_log_id_unique' });
      table.string('merchant_id', ID).notNullable();
      table.string('user_id', ID).notNullable();
      table.string('action', 64).notNullable();
      table.string('object_type', 64).notNullable();
      table.string('object_id', ID).nullable();
      table.text('details').nullable();
      table.bigInteger('created_at').notNullable();
      table.index(['merchant_id', 'seq'], 'audit_log_merchant_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('audit_log');
    await knex.schema.alterTable('users', (table) => {
      table.dropColumn('mfa_last_step');
      table.dropColumn('mfa_secret');
    });
  },
};
