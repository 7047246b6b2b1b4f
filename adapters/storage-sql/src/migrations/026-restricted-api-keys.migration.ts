import type { Knex } from 'knex';

/**
 * Restricted API keys (docs/api-keys.md): `api_keys.permissions` holds a restricted key's grants as
 * JSON text, `{"payment_intents":"write","balance":"read"}`, in the order of the resources. A
 * secret key, every key made before included, keeps NULL: it reaches every `/v1` route of its mode.
 * Read with the key on every request (the authentication join), so it is a column of the key's
 * row, not a table of its own.
 */
export const restrictedApiKeys: Knex.Migration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('api_keys', (table) => {
      table.text('permissions').nullable();
    });
  },

  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('api_keys', (table) => {
      table.dropColumn('permissions');
    });
  },
};
