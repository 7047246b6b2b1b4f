import type { Knex } from 'knex';

/**
 * When the channel settlement job may next ask about a succeeded intent the channel has not
 * settled yet: without it, the oldest unsettled intents (a channel that settles after days) would
 * fill every batch, be asked about on every tick, and the intents behind them never be reached.
 */
export const settlementChecks: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('payment_intents', (table) => {
      table.bigInteger('settlement_check_at').nullable();
      table.index(['mode', 'status', 'settlement_check_at'], 'payment_intents_settlement_check_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropIndex(['mode', 'status', 'settlement_check_at'], 'payment_intents_settlement_check_index');
      table.dropColumn('settlement_check_at');
    });
  },
};
