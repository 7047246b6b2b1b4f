import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** Our references and the channels' ids (the rest protocol allows 255 characters). */
const REFERENCE = 255;
const CHANNEL = 32;

/**
 * Reconciliation with the channels' statements (docs/reconciliation.md):
 * - `ledger_channel_movements`: what the channel moved, kept with the posting that mirrors it
 *   (`LedgerTransaction.channelMovement`), once per cause; one of a posting whose legs all
 *   rounded to zero is kept too, with no journal transaction;
 * - `reconciliation_statement_lines`: the channels' statement lines as they were read, unique on
 *   the channel's kind and id;
 * - `reconciliation_progress`: per channel and mode, where the next statement read starts and
 *   until when keys were compared;
 * - `reconciliation_breaks`: the mismatches (waiting, open, cleared); `open_key` holds the key
 *   while the row is not cleared, so one key has at most one such row;
 * - indexes for the simulator's statement (its paid orders, succeeded refunds and lost disputes by time).
 */
export const channelReconciliation: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('ledger_channel_movements', (table) => {
      collation(table);
      table.string('cause', 96).notNullable().primary();
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('channel', CHANNEL).notNullable();
      table.string('kind', 16).notNullable();
      table.string('reference', REFERENCE).notNullable();
      table.string('currency', 3).notNullable();
      table.bigInteger('amount').notNullable();
      table.bigInteger('created_at').notNullable();
      table.index(['mode', 'channel', 'created_at'], 'ledger_channel_movements_active_index');
      table.index(['mode', 'channel', 'kind', 'reference'], 'ledger_channel_movements_key_index');
    });

    await knex.schema.createTable('reconciliation_statement_lines', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('channel', CHANNEL).notNullable();
      table.string('mode', 4).notNullable();
      table.string('kind', 16).notNullable();
      table.string('channel_id', REFERENCE).notNullable();
      table.string('reference', REFERENCE).notNullable();
      table.string('currency', 3).notNullable();
      table.bigInteger('amount').notNullable();
      table.bigInteger('occurred_at').notNullable();
      table.bigInteger('fetched_at').notNullable();
      table.unique(['channel', 'mode', 'kind', 'channel_id'], { indexName: 'reconciliation_statement_lines_unique' });
      table.index(['channel', 'mode', 'kind', 'reference'], 'reconciliation_statement_lines_key_index');
      table.index(['channel', 'mode', 'fetched_at'], 'reconciliation_statement_lines_fetched_index');
    });

    await knex.schema.createTable('reconciliation_progress', (table) => {
      collation(table);
      table.string('channel', CHANNEL).notNullable();
      table.string('mode', 4).notNullable();
      table.string('cursor', 1024).nullable();
      table.bigInteger('statement_as_of').nullable();
      table.bigInteger('checked_until').nullable();
      table.primary(['channel', 'mode']);
    });

    await knex.schema.createTable('reconciliation_breaks', (table) => {
      collation(table);
      table.string('id', ID).notNullable().primary();
      table.string('channel', CHANNEL).notNullable();
      table.string('mode', 4).notNullable();
      table.string('kind', 16).notNullable();
      table.string('reference', REFERENCE).notNullable();
      // `<channel>:<mode>:<kind>:<reference>` while waiting or open; NULL once cleared.
      table.string('open_key', 320).nullable().unique({ indexName: 'reconciliation_breaks_open_key_unique' });
      table.string('status', 16).notNullable();
      table.string('reason', 32).notNullable();
      table.text('statement_amounts').notNullable();
      table.text('ledger_amounts').notNullable();
      table.string('merchant_id', ID).nullable();
      table.string('detail', 64).nullable();
      table.bigInteger('first_seen_at').notNullable();
      table.bigInteger('opened_at').nullable();
      table.bigInteger('cleared_at').nullable();
      table.bigInteger('updated_at').notNullable();
      table.index(['channel', 'mode', 'status'], 'reconciliation_breaks_channel_index');
      table.index(['status', 'updated_at'], 'reconciliation_breaks_status_index');
    });

    await knex.schema.alterTable('simulator_orders', (table) => {
      table.index(['mode', 'status', 'paid_at'], 'simulator_orders_statement_index');
    });
    await knex.schema.alterTable('simulator_refunds', (table) => {
      table.index(['mode', 'status', 'updated_at'], 'simulator_refunds_statement_index');
    });
    await knex.schema.alterTable('simulator_disputes', (table) => {
      table.index(['mode', 'status', 'updated_at'], 'simulator_disputes_statement_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('simulator_disputes', (table) => {
      table.dropIndex(['mode', 'status', 'updated_at'], 'simulator_disputes_statement_index');
    });
    await knex.schema.alterTable('simulator_refunds', (table) => {
      table.dropIndex(['mode', 'status', 'updated_at'], 'simulator_refunds_statement_index');
    });
    await knex.schema.alterTable('simulator_orders', (table) => {
      table.dropIndex(['mode', 'status', 'paid_at'], 'simulator_orders_statement_index');
    });
    await knex.schema.dropTable('reconciliation_breaks');
    await knex.schema.dropTable('reconciliation_progress');
    await knex.schema.dropTable('reconciliation_statement_lines');
    await knex.schema.dropTable('ledger_channel_movements');
  },
};
