import type { Knex } from 'knex';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const GUARD_INDEXES = {
  attemptPendingSlot: 'payment_attempts_pending_slot_unique',
} as const;

/**
 * Rules that a row lock alone kept, kept by a write the database checks, so they hold on a
 * multi-writer cluster too (a Galera node's row locks hold up no transaction of another node):
 *
 * - `payment_attempts.pending_slot`: 1 on an attempt created pending, NULL once it is not, unique
 *   per intent (both engines let NULLs repeat in a unique index), so an intent has at most one
 *   pending attempt however many requests create one at once. An intent that already has several
 *   pending attempts (made before this rule, on a cluster) keeps the slot on its oldest; the others
 *   stay pending without one until the reconciler or expiry ends them.
 * - `notices.locked_until`: a lease taken before a notice is sent, so two workers that both hold
 *   the job's lock (a Redis that restarted empty) send it once.
 *
 * Both columns are added at the end and nullable (instant on MySQL 8 and MariaDB); the unique
 * index is built once the slots are filled.
 */
export const multiWriterGuards: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.integer('pending_slot').nullable();
    });
    // The oldest pending attempt of each intent. The derived table lets MySQL read the table it updates.
    const oldestPending = knex
      .select('first_seq')
      .from(knex('payment_attempts').min({ first_seq: 'seq' }).where({ status: 'pending' }).groupBy('payment_intent_id').as('oldest'));
    await knex('payment_attempts').where({ status: 'pending' }).whereIn('seq', oldestPending).update({ pending_slot: 1 });
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.unique(['payment_intent_id', 'pending_slot'], { indexName: GUARD_INDEXES.attemptPendingSlot });
    });
    await knex.schema.alterTable('notices', (table) => {
      table.bigInteger('locked_until').nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('notices', (table) => {
      table.dropColumn('locked_until');
    });
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.dropUnique(['payment_intent_id', 'pending_slot'], GUARD_INDEXES.attemptPendingSlot);
    });
    await knex.schema.alterTable('payment_attempts', (table) => {
      table.dropColumn('pending_slot');
    });
  },
};
