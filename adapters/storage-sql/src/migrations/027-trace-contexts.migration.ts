import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH } from './table-options';

/**
 * The trace context (a W3C `traceparent`) of the work that last wrote a subject whose next step
 * runs elsewhere: an event and its webhook deliveries (the relay), a payment intent (the
 * settlement report and the release), a channel's order (the simulator's outcome). The worker
 * starts that step's span with it as parent, so the step joins the trace that caused it
 * (docs/operations.md, Traces). Written only while tracing is on, in the transaction of the change
 * where there is one; a table of its own so the statements of the subjects' own tables stay the
 * same with tracing off. `recorded_at` (ms) lets old rows be purged.
 */
export const traceContexts: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('trace_contexts', (table) => {
      binaryCollation(knex)(table);
      table.string('subject_id', ID_LENGTH).notNullable().primary();
      table.string('traceparent', 64).notNullable();
      table.bigInteger('recorded_at').notNullable();
      table.index(['recorded_at'], 'trace_contexts_recorded_index');
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('trace_contexts');
  },
};
