import type { Knex } from 'knex';
import { DISPUTE_INDEXES } from './008-disputes.migration';
import { ID_LENGTH as ID } from './table-options';

export const DISPUTE_MODE_INDEXES = {
  /** Replaces `disputes_channel_dispute_unique`: a channel's dispute ids are unique per mode. */
  channelModeDispute: 'disputes_channel_mode_dispute_unique',
} as const;

export const DUPLICATE_PAYMENT_INDEXES = {
  duplicateOf: 'payment_attempts_duplicate_index',
} as const;

/**
 * Two rules of money at the edges:
 * - a channel's dispute id is unique per channel **and mode**: a channel numbers its test and live
 *   disputes apart, so a test dispute must not collide with (or be taken for) a live one;
 * - `payment_attempts.duplicate_of`: an attempt that succeeded after another attempt had already
 *   paid its intent (the payer paid twice) names that attempt; its amount is owed back to the
 *   payer (docs/ledger.md, `duplicate_payment`). Indexed so the operator's list reads only them.
 */
export const disputeModesAndDuplicatePayments: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('disputes', (table) => {
      table.unique(['channel', 'mode', 'channel_dispute_id'], { indexName: DISPUTE_MODE_INDEXES.channelModeDispute });
    });
    await knex.schema.alterTable('disputes', (table) => {
      table.dropUnique(['channel', 'channel_dispute_id'], DISPUTE_INDEXES.channelDispute);
    });
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.string('duplicate_of', ID).nullable();
      table.index(['duplicate_of'], DUPLICATE_PAYMENT_INDEXES.duplicateOf);
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.dropIndex(['duplicate_of'], DUPLICATE_PAYMENT_INDEXES.duplicateOf);
      table.dropColumn('duplicate_of');
    });
    // Fails while a channel dispute id is recorded in both modes: that data needs the new rule.
    await knex.schema.alterTable('disputes', (table) => {
      table.unique(['channel', 'channel_dispute_id'], { indexName: DISPUTE_INDEXES.channelDispute });
    });
    await knex.schema.alterTable('disputes', (table) => {
      table.dropUnique(['channel', 'mode', 'channel_dispute_id'], DISPUTE_MODE_INDEXES.channelModeDispute);
    });
  },
};
