import { validateApiKeyPermissions, type ApiKey, type ApiKeyPermissions, type ApiKeyRepository, type ApiKeyWithMerchant, type Mode } from '@payments/core';
import { KnexTable } from '../knex-context';
import { merchantFromRow, type MerchantRow } from './knex-merchant.repository';
import { toDate, toMillis, toNullable, toNullableMillis, toOptional, toOptionalDate, withoutUndefined, type BigIntValue } from '../mapping/column-values';

interface ApiKeyRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  prefix: string;
  secret_digest: string;
  name: string | null;
  /** A restricted key's permissions as JSON text; NULL for a secret key. */
  permissions: string | null;
  created_at: BigIntValue;
  revoked_at: BigIntValue | null;
}

/** The key's columns in the authentication join, renamed so they cannot clash with the merchant's. */
interface KeyColumnsOfJoin {
  key_id: string;
  key_mode: Mode;
  key_secret_digest: string;
  key_name: string | null;
  key_permissions: string | null;
  key_created_at: BigIntValue;
  key_revoked_at: BigIntValue | null;
}

/** Every authenticated request runs this: the merchant's columns under their own names, the key's prefixed, one row per key. */
const KEYS_WITH_MERCHANT_BY_PREFIX =
  'select `merchants`.*, ' +
  ['id', 'mode', 'secret_digest', 'name', 'permissions', 'created_at', 'revoked_at']
    .map((column) => `\`api_keys\`.\`${column}\` as \`key_${column}\``)
    .join(', ') +
  ' from `api_keys` inner join `merchants` on `merchants`.`id` = `api_keys`.`merchant_id`' +
  ' where `api_keys`.`prefix` = ? order by `api_keys`.`created_at` asc, `api_keys`.`id` asc';

/**
 * A stored grant read back through core's own check, so a row that is not one (written by hand,
 * say) fails the request rather than open more than it names.
 */
function permissionsOf(text: string | null): ApiKeyPermissions | undefined {
  return text === null ? undefined : validateApiKeyPermissions(JSON.parse(text));
}

function toEntity(row: ApiKeyRow): ApiKey {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    prefix: row.prefix,
    secretDigest: row.secret_digest,
    name: toOptional(row.name),
    permissions: permissionsOf(row.permissions),
    created: toDate(row.created_at),
    revokedAt: toOptionalDate(row.revoked_at),
  });
}

export class KnexApiKeyRepository extends KnexTable<ApiKeyRow> implements ApiKeyRepository {
  protected readonly tableName = 'api_keys';

  async insert(key: ApiKey): Promise<void> {
    await this.insertRow({
      id: key.id,
      merchant_id: key.merchantId,
      mode: key.mode,
      prefix: key.prefix,
      secret_digest: key.secretDigest,
      name: toNullable(key.name),
      permissions: key.permissions === undefined ? null : JSON.stringify(key.permissions),
      created_at: toMillis(key.created),
      revoked_at: toNullableMillis(key.revokedAt),
    });
  }

  async findByPrefix(prefix: string): Promise<ApiKeyWithMerchant[]> {
    const rows = await this.rows<MerchantRow & KeyColumnsOfJoin>({ sql: KEYS_WITH_MERCHANT_BY_PREFIX, bindings: [prefix] });
    return rows.map((row) => ({
      key: toEntity({
        id: row.key_id,
        merchant_id: row.id,
        mode: row.key_mode,
        prefix,
        secret_digest: row.key_secret_digest,
        name: row.key_name,
        permissions: row.key_permissions,
        created_at: row.key_created_at,
        revoked_at: row.key_revoked_at,
      }),
      merchant: merchantFromRow(row),
    }));
  }

  async listActive(merchantId: string): Promise<ApiKey[]> {
    const rows = await this.rows(this.table().where({ merchant_id: merchantId }).whereNull('revoked_at').orderBy('created_at', 'desc').orderBy('id', 'desc'));
    return rows.map(toEntity);
  }

  async findById(merchantId: string, id: string): Promise<ApiKey | undefined> {
    const row = await this.first(this.table().where({ merchant_id: merchantId, id }));
    return row === undefined ? undefined : toEntity(row);
  }

  async revoke(merchantId: string, id: string, at: Date): Promise<ApiKey | undefined> {
    // Conditional on NULL so the first revocation time stays.
    await this.changed(
      this.table()
        .where({ merchant_id: merchantId, id })
        .whereNull('revoked_at')
        .update({ revoked_at: toMillis(at) }),
    );
    return this.findById(merchantId, id);
  }
}
