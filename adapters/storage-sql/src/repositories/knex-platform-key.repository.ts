import type { PlatformKey, PlatformKeyRepository } from '@payments/core';
import { KnexTable } from '../knex-context';
import { toDate, toMillis, type BigIntValue } from '../mapping/column-values';
import { isDuplicateKeyError } from '../sql-errors';

interface PlatformKeyRow {
  seq?: BigIntValue;
  id: string;
  public_key: string;
  private_key_sealed: string;
  published_at: BigIntValue;
  active_from: BigIntValue;
  created_at: BigIntValue;
  genesis: number | null;
}

const GENESIS = { indexName: 'platform_keys_genesis_unique', sqliteColumns: ['platform_keys.genesis'] } as const;

function toEntity(row: PlatformKeyRow): PlatformKey {
  return {
    id: row.id,
    publicKey: row.public_key,
    privateKeySealed: row.private_key_sealed,
    publishedAt: toDate(row.published_at),
    activeFrom: toDate(row.active_from),
    created: toDate(row.created_at),
  };
}

function toRow(key: PlatformKey, genesis: number | null): PlatformKeyRow {
  return {
    id: key.id,
    public_key: key.publicKey,
    private_key_sealed: key.privateKeySealed,
    published_at: toMillis(key.publishedAt),
    active_from: toMillis(key.activeFrom),
    created_at: toMillis(key.created),
    genesis,
  };
}

export class KnexPlatformKeyRepository extends KnexTable<PlatformKeyRow> implements PlatformKeyRepository {
  protected readonly tableName = 'platform_keys';

  async list(): Promise<PlatformKey[]> {
    return (await this.rows(this.table().orderBy('seq', 'asc'))).map(toEntity);
  }

  async insert(key: PlatformKey): Promise<void> {
    await this.insertRow(toRow(key, null));
  }

  async insertFirst(key: PlatformKey): Promise<PlatformKey[]> {
    try {
      await this.insertRow(toRow(key, 1));
    } catch (error) {
      if (!isDuplicateKeyError(error, GENESIS)) throw error;
    }
    return this.list();
  }
}
