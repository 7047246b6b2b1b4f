import type { Knex } from 'knex';
import { IDEMPOTENCY } from '@payments/core';

/**
 * The Idempotency-Key of the manual request that made a settlement. `POST /v1/settlements` cannot
 * commit its answer with its work (it holds a lock across the transaction and, in test mode, pays
 * afterwards), so a retry after a crash looks its settlement up by key. NULL for scheduled batches;
 * unique per merchant and mode like the keys themselves.
 */
export const settlementRequestKeys: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('settlements', (table) => {
      table.string('request_key', IDEMPOTENCY.maxKeyLength).nullable();
      table.unique(['merchant_id', 'mode', 'request_key'], { indexName: 'settlements_request_key_unique' });
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('settlements', (table) => {
      table.dropUnique(['merchant_id', 'mode', 'request_key'], 'settlements_request_key_unique');
      table.dropColumn('request_key');
    });
  },
};
