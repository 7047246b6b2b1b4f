import type { Knex } from 'knex';
import { merchantOrderSearchKey } from '@payments/core';
import { dialectOf } from '../dialect';

/** How many intents one backfill pass reads and keys. */
const BATCH = 500;

export const CONSOLE_SEARCH_INDEXES = {
  intentsOrderKey: 'payment_intents_order_key_index',
} as const;

/**
 * What the console's payment search and delivery log read:
 *
 * - `payment_intents.merchant_order_key`: the merchant_order_id in lower case
 *   (`merchantOrderSearchKey`, written by the repository with every intent), indexed after the
 *   merchant and mode, so "ord-24" finds ORD-24053 with a prefix LIKE that reads the index. On
 *   SQLite the column compares NOCASE: SQLite's LIKE ignores ASCII case, and reads an index for a
 *   prefix only when the column's collation does the same. On MySQL / MariaDB it keeps the table's
 *   binary collation, where LIKE compares the lower-cased text as it is. Filled here for the
 *   intents made before, in the same lower case as the service's (JavaScript's, not SQL's
 *   LOWER(), which on SQLite folds ASCII letters only).
 * - `webhook_delivery_attempts.api_version`: the version the attempt's body was rendered at, so
 *   the log shows the body that was sent (the event, re-rendered at it) without storing it;
 *   NULL for attempts made before (shown at the endpoint's version).
 * - `webhook_delivery_attempts.response_body`: the first 1 KiB of the endpoint's answer, as text.
 *   What the endpoint answered is the merchant's own; nothing the service signs with is in it.
 */
export const consoleSearchAndDeliveryLog: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    if (dialectOf(knex) === 'mysql') {
      await knex.schema.alterTable('payment_intents', (table) => {
        table.string('merchant_order_key', 255).nullable();
      });
    } else {
      await knex.raw('alter table `payment_intents` add column `merchant_order_key` varchar(255) collate nocase null');
    }
    for (let after = 0; ;) {
      const rows: { seq: number | string; merchant_order_id: string }[] = await knex('payment_intents')
        .where('seq', '>', after)
        .orderBy('seq', 'asc')
        .limit(BATCH)
        .select('seq', 'merchant_order_id');
      if (rows.length === 0) break;
      for (const row of rows) {
        await knex('payment_intents')
          .where({ seq: row.seq })
          .update({ merchant_order_key: merchantOrderSearchKey(row.merchant_order_id) });
      }
      after = Number(rows[rows.length - 1].seq);
    }
    await knex.schema.alterTable('payment_intents', (table) => {
      table.index(['merchant_id', 'mode', 'merchant_order_key'], CONSOLE_SEARCH_INDEXES.intentsOrderKey);
    });
    await knex.schema.alterTable('webhook_delivery_attempts', (table) => {
      table.string('api_version', 16).nullable();
      table.text('response_body').nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('webhook_delivery_attempts', (table) => {
      table.dropColumn('response_body');
      table.dropColumn('api_version');
    });
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropIndex(['merchant_id', 'mode', 'merchant_order_key'], CONSOLE_SEARCH_INDEXES.intentsOrderKey);
    });
    await knex.schema.alterTable('payment_intents', (table) => {
      table.dropColumn('merchant_order_key');
    });
  },
};
