import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

export const ATTEMPT_INDEXES = {
  attemptsId: 'payment_attempts_id_unique',
  attemptsIntent: 'payment_attempts_intent_index',
  attemptsDueCheck: 'payment_attempts_due_check_index',
  intentsAwaitingSettlement: 'payment_intents_status_updated_index',
  intentsRelease: 'payment_intents_release_index',
  simulatorReference: 'simulator_orders_reference_unique',
  simulatorDue: 'simulator_orders_due_index',
} as const;

/**
 * Attempts (one try at a channel), the release timer's mark on intents, and the simulator
 * channel's order book (kept in the service's database so every API and worker process of a
 * test-mode deployment sees the same simulated channel).
 */
export const paymentAttempts: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const collation = binaryCollation(knex);

    await knex.schema.createTable('payment_attempts', (table) => {
      collation(table);
      table.bigIncrements('seq');
      table.string('id', ID).notNullable().unique({ indexName: ATTEMPT_INDEXES.attemptsId });
      table.string('payment_intent_id', ID).notNullable();
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.string('status', 16).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('payment_method', 32).notNullable();
      table.string('channel', 32).notNullable();
      table.string('channel_order_id', 128).nullable();
      table.text('next_action').nullable();
      table.string('failure_code', 32).nullable();
      table.string('failure_message', 255).nullable();
      table.bigInteger('succeeded_at').nullable();
      table.bigInteger('next_check_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.integer('version').notNullable();
      table.index(['payment_intent_id', 'seq'], ATTEMPT_INDEXES.attemptsIntent);
      table.index(['status', 'next_check_at'], ATTEMPT_INDEXES.attemptsDueCheck);
    });

    await knex.schema.alterTable('payment_intents', (table) => {
      table.bigInteger('released_at').nullable();
      table.index(['status', 'updated_at'], ATTEMPT_INDEXES.intentsAwaitingSettlement);
      table.index(['status', 'available_at'], ATTEMPT_INDEXES.intentsRelease);
    });

    await knex.schema.createTable('simulator_orders', (table) => {
      collation(table);
      table.string('id', ID).primary();
      table.string('reference', ID).notNullable().unique({ indexName: ATTEMPT_INDEXES.simulatorReference });
      table.string('mode', 4).notNullable();
      table.bigInteger('amount').notNullable();
      table.string('currency', 3).notNullable();
      table.string('payment_method', 32).notNullable();
      table.string('status', 16).notNullable();
      table.string('failure_code', 32).nullable();
      table.string('callback_url', 2048).notNullable();
      table.text('scheduled_outcome').nullable();
      table.bigInteger('due_at').nullable();
      table.bigInteger('paid_at').nullable();
      table.bigInteger('settled_at').nullable();
      table.bigInteger('created_at').notNullable();
      table.index(['due_at'], ATTEMPT_INDEXES.simulatorDue);
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('simulator_orders');
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropIndex(['status', 'available_at'], ATTEMPT_INDEXES.intentsRelease);
      table.dropIndex(['status', 'updated_at'], ATTEMPT_INDEXES.intentsAwaitingSettlement);
      table.dropColumn('released_at');
    });
    await knex.schema.dropTable('payment_attempts');
  },
};
