import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/**
 * Server-side dashboard sessions: the cookie carries a random token, the table only its SHA-256
 * digest. Sign-in throttling keeps no table: its counters live in Redis (or in process).
 */
export const dashboardSessions: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('dashboard_sessions', (table) => {
      binaryCollation(knex)(table);
      table.string('id', ID).primary();
      table.string('token_digest', 64).notNullable().unique({ indexName: 'dashboard_sessions_token_digest_unique' });
      table.string('user_id', ID).notNullable();
      table.string('merchant_id', ID).notNullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('expires_at').notNullable();
      table.bigInteger('ended_at').nullable();
      table.index(['merchant_id', 'user_id'], 'dashboard_sessions_user_index');
      table.index(['expires_at'], 'dashboard_sessions_expiry_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('dashboard_sessions');
  },
};
