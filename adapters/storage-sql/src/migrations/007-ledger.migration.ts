import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/** Account codes are `m:<merchant>:<mode>:<bucket>:<CUR>` or `p:<mode>:<name>:<CUR>`. */
const ACCOUNT = 128;

/**
 * The double-entry ledger: an append-only journal (one row per transaction, unique on its cause,
 * so a cause posts once) with its entries, and the balance table kept in step with it.
 */
export const ledger: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('ledger_transactions', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('cause', 96).notNullable().unique({ indexName: 'ledger_transactions_cause_unique' });
      table.string('cause_type', 32).notNullable();
      table.string('cause_id', ID).notNullable();
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.bigInteger('created_at').notNullable();
      table.index(['merchant_id', 'mode', 'seq'], 'ledger_transactions_merchant_index');
    });

    await knex.schema.createTable('ledger_entries', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.bigInteger('transaction_seq').notNullable();
      table.string('account', ACCOUNT).notNullable();
      // Copied from the account code, so "no entry on another merchant's account" is one query.
      table.string('account_merchant_id', ID).nullable();
      table.string('account_mode', 4).notNullable();
      table.string('currency', 3).notNullable();
      table.bigInteger('amount').notNullable();
      table.index(['transaction_seq'], 'ledger_entries_transaction_index');
      table.index(['account'], 'ledger_entries_account_index');
    });

    await knex.schema.createTable('ledger_balances', (table) => {
      collation(table);
      table.string('account', ACCOUNT).notNullable().primary();
      table.string('merchant_id', ID).nullable();
      table.string('mode', 4).notNullable();
      table.string('currency', 3).notNullable();
      table.bigInteger('balance').notNullable();
      table.index(['merchant_id', 'mode'], 'ledger_balances_merchant_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('ledger_balances');
    await knex.schema.dropTable('ledger_entries');
    await knex.schema.dropTable('ledger_transactions');
  },
};
