import type { Knex } from 'knex';
import { dialectOf } from '../dialect';

/** Column length of every id. */
export const ID_LENGTH = 64;

/**
 * Ids, keys and merchant_order_id must compare byte for byte (`ORDER-1` is not `order-1`);
 * SQLite compares TEXT that way already, MySQL's default collations do not.
 */
export function binaryCollation(knex: Knex): (table: Knex.CreateTableBuilder) => void {
  const mysql = dialectOf(knex) === 'mysql';
  return (table) => {
    if (!mysql) return;
    table.charset('utf8mb4');
    table.collate('utf8mb4_bin');
  };
}
