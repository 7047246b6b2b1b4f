import type { Knex } from 'knex';
import { ID_LENGTH as ID } from './table-options';

/**
 * A payment's money, read from the journal (docs/ledger.md, "A payment's money"):
 * - `ledger_transactions.payment_intent_id` names the payment whose money a transaction moves
 *   (every posting but settlements and duplicate payments), so the payment's share of each bucket
 *   is one indexed sum. Transactions posted before are attributed by their cause: the intent for
 *   payments, releases and claims, the refund's or the dispute's intent for theirs.
 * - `refunds.cleared_amount`: what the channel gives back for a refund in the settlement currency
 *   (its whole amount at the payment's rate), which moves the channel's side; NULL on refunds made
 *   before, which moved it by their debit.
 */
export const paymentMoney: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('ledger_transactions', (table) => {
      table.string('payment_intent_id', ID).nullable();
      table.index(['merchant_id', 'mode', 'payment_intent_id'], 'ledger_transactions_payment_index');
    });
    await knex('ledger_transactions')
      .whereIn('cause_type', ['payment', 'release', 'dispute_claim'])
      .update({ payment_intent_id: knex.ref('cause_id') });
    await knex('ledger_transactions')
      .whereIn('cause_type', ['refund', 'refund_failed'])
      .update({ payment_intent_id: knex('refunds').select('payment_intent_id').where('refunds.id', knex.ref('ledger_transactions.cause_id')) });
    await knex('ledger_transactions')
      .whereIn('cause_type', ['dispute_opened', 'dispute_won', 'dispute_lost'])
      .update({ payment_intent_id: knex('disputes').select('payment_intent_id').where('disputes.id', knex.ref('ledger_transactions.cause_id')) });
    await knex.schema.alterTable('refunds', (table) => {
      table.bigInteger('cleared_amount').nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('refunds', (table) => {
      table.dropColumn('cleared_amount');
    });
    await knex.schema.alterTable('ledger_transactions', (table) => {
      table.dropIndex(['merchant_id', 'mode', 'payment_intent_id'], 'ledger_transactions_payment_index');
    });
    await knex.schema.alterTable('ledger_transactions', (table) => {
      table.dropColumn('payment_intent_id');
    });
  },
};
