import type { Knex } from 'knex';
import { dialectOf } from '../dialect';
import { ID_LENGTH as ID } from './table-options';

/** Index names are fixed so duplicate-key errors can be attributed to the rule they broke. */
export const CONSOLE_INDEXES = {
  eventsIntent: 'events_intent_index',
  eventsType: 'events_type_index',
  settlementRequestKey: 'settlements_request_caller_key_unique',
} as const;

const OLD_SETTLEMENT_REQUEST_KEY = 'settlements_request_key_unique';

/** `dashboard:` and a user id. */
const CALLER_LENGTH = ID + 16;

/** A string field of an event's JSON body, in the engine's own words. */
function eventField(knex: Knex, field: 'id' | 'payment_intent'): string {
  return dialectOf(knex) === 'mysql' ? `json_unquote(json_extract(\`events\`.\`data\`, '$.${field}'))` : `json_extract("events"."data", '$.${field}')`;
}

/** Events whose type starts with `prefix` (`LIKE` would read its `_` as a wildcard). */
function ofTypes(prefix: string): [string, [number, string]] {
  return ['substr(`type`, 1, ?) = ?', [prefix.length, prefix]];
}

/**
 * What the dashboard console reads and writes:
 *
 * - `events.payment_intent_id`: the intent an event concerns (its own events, its refunds' and its
 *   disputes'), so an intent's events are one indexed range; filled in for the events already
 *   written. And an index by type, so listing one type never walks a merchant's whole log.
 * - `idempotency_keys.caller` and `settlements.request_caller`: whose key a key is (`api` for
 *   every API key of a merchant, one per dashboard user), part of the key's identity, so a key a
 *   dashboard user sends never meets an API caller's.
 * - `webhook_endpoints.disabled_reason`: why an endpoint is disabled.
 */
export const dashboardConsole: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    const mysql = dialectOf(knex) === 'mysql';

    await knex.schema.alterTable('events', (table) => {
      table.string('payment_intent_id', ID).nullable();
    });
    await knex('events')
      .whereRaw(...ofTypes('payment_intent.'))
      .update({ payment_intent_id: knex.raw(eventField(knex, 'id')) });
    await knex('events')
      .whereRaw(...ofTypes('refund.'))
      .update({ payment_intent_id: knex.raw(eventField(knex, 'payment_intent')) });
    await knex('events')
      .whereRaw(...ofTypes('dispute.'))
      .update({
        payment_intent_id: knex('disputes')
          .select('payment_intent_id')
          .where('id', knex.raw(eventField(knex, 'id'))),
      });
    await knex.schema.alterTable('events', (table) => {
      table.index(['merchant_id', 'mode', 'payment_intent_id', 'seq'], CONSOLE_INDEXES.eventsIntent);
      table.index(['merchant_id', 'mode', 'type', 'seq'], CONSOLE_INDEXES.eventsType);
    });

    if (mysql) {
      // One statement: the table is rebuilt once and is never without its primary key.
      await knex.raw(
        `alter table \`idempotency_keys\` add column \`caller\` varchar(${CALLER_LENGTH}) not null default 'api' after \`mode\`, ` +
          'drop primary key, add primary key (`merchant_id`, `mode`, `caller`, `idem_key`)',
      );
    } else {
      await knex.schema.alterTable('idempotency_keys', (table) => {
        table.string('caller', CALLER_LENGTH).notNullable().defaultTo('api');
      });
      await knex.schema.alterTable('idempotency_keys', (table) => {
        table.dropPrimary();
        table.primary(['merchant_id', 'mode', 'caller', 'idem_key']);
      });
    }

    await knex.schema.alterTable('settlements', (table) => {
      table.string('request_caller', CALLER_LENGTH).nullable();
    });
    await knex('settlements').whereNotNull('request_key').update({ request_caller: 'api' });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropUnique(['merchant_id', 'mode', 'request_key'], OLD_SETTLEMENT_REQUEST_KEY);
      table.unique(['merchant_id', 'mode', 'request_caller', 'request_key'], { indexName: CONSOLE_INDEXES.settlementRequestKey });
    });

    await knex.schema.alterTable('webhook_endpoints', (table) => {
      table.string('disabled_reason', 16).nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('webhook_endpoints', (table) => {
      table.dropColumn('disabled_reason');
    });

    // A dashboard user's settlement keys had no place before: they are forgotten.
    await knex('settlements').whereNot('request_caller', 'api').update({ request_key: null });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropUnique(['merchant_id', 'mode', 'request_caller', 'request_key'], CONSOLE_INDEXES.settlementRequestKey);
      table.unique(['merchant_id', 'mode', 'request_key'], { indexName: OLD_SETTLEMENT_REQUEST_KEY });
    });
    await knex.schema.alterTable('settlements', (table) => {
      table.dropColumn('request_caller');
    });

    // Likewise the dashboard users' idempotency keys.
    await knex('idempotency_keys').whereNot('caller', 'api').delete();
    await knex.schema.alterTable('idempotency_keys', (table) => {
      table.dropPrimary();
      table.primary(['merchant_id', 'mode', 'idem_key']);
    });
    await knex.schema.alterTable('idempotency_keys', (table) => {
      table.dropColumn('caller');
    });

    await knex.schema.alterTable('events', (table) => {
      table.dropIndex(['merchant_id', 'mode', 'type', 'seq'], CONSOLE_INDEXES.eventsType);
      table.dropIndex(['merchant_id', 'mode', 'payment_intent_id', 'seq'], CONSOLE_INDEXES.eventsIntent);
    });
    await knex.schema.alterTable('events', (table) => {
      table.dropColumn('payment_intent_id');
    });
  },
};
