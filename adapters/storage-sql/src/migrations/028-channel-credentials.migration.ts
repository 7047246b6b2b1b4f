import type { Knex } from 'knex';
import { binaryCollation, ID_LENGTH as ID } from './table-options';

/**
 * Channel credentials per merchant and mode (docs/channels/writing-an-adapter.md): the keys a
 * provider's channel (stripe) uses for one merchant, set by the operator with `admin channel set`.
 * `secrets_sealed` is the secret box's sealing of a JSON object of the provider's named settings;
 * nothing of it is stored in plaintext.
 */
export const channelCredentials: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('channel_credentials', (table) => {
      binaryCollation(knex)(table);
      table.string('channel', 32).notNullable();
      table.string('merchant_id', ID).notNullable();
      table.string('mode', 4).notNullable();
      table.text('secrets_sealed').notNullable();
      table.bigInteger('updated_at').notNullable();
      table.primary(['channel', 'mode', 'merchant_id']);
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('channel_credentials');
  },
};
