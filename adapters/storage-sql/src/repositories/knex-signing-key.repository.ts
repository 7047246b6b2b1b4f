import { CoreError, type SigningKey, type SigningKeyRepository } from '@payments/core';
import { KnexTable } from '../knex-context';
import { toDate, toMillis, toNullable, toOptional, withoutUndefined, type BigIntValue } from '../mapping/column-values';
import { DASHBOARD_RESOURCE_INDEXES } from '../migrations/005-dashboard-resources.migration';
import { isDuplicateKeyError } from '../sql-errors';

interface SigningKeyRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  algorithm: 'ed25519';
  public_key: string;
  name: string | null;
  created_at: BigIntValue;
}

function toEntity(row: SigningKeyRow): SigningKey {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    algorithm: row.algorithm,
    publicKey: row.public_key,
    name: toOptional(row.name),
    created: toDate(row.created_at),
  });
}

const SAME_KEY = {
  indexName: DASHBOARD_RESOURCE_INDEXES.signingKeysMerchantKey,
  sqliteColumns: ['signing_keys.merchant_id', 'signing_keys.public_key'],
};

export class KnexSigningKeyRepository extends KnexTable<SigningKeyRow> implements SigningKeyRepository {
  protected readonly tableName = 'signing_keys';

  async insert(key: SigningKey): Promise<void> {
    try {
      await this.insertRow({
        id: key.id,
        merchant_id: key.merchantId,
        algorithm: key.algorithm,
        public_key: key.publicKey,
        name: toNullable(key.name),
        created_at: toMillis(key.created),
      });
    } catch (error) {
      if (isDuplicateKeyError(error, SAME_KEY)) throw signingKeyExists();
      throw error;
    }
  }

  async listByMerchant(merchantId: string): Promise<SigningKey[]> {
    const rows = await this.rows(this.table().where({ merchant_id: merchantId }).orderBy('seq', 'desc'));
    return rows.map(toEntity);
  }
}

export function signingKeyExists(): CoreError {
  return new CoreError('signing_key_exists', 'conflict', 'This public key is registered already.', { param: 'public_key' });
}
